;;; nextedit-driver.el --- drive `nextedit lsp' from Emacs in batch mode (run by tests/test_lsp_emacs.py)  -*- lexical-binding: t -*-
;;
;;   emacs --batch -l tests/emacs/nextedit-driver.el
;;
;; Loads the README's eglot setup as printed, opens the files, makes the
;; developer's edit and presses the README's key, C-c n, as a keyboard macro.
;; Environment:
;;   NEXTEDIT_INIT   the README's Emacs snippet, as a file
;;   NEXTEDIT_MODE   crossfile | walk | count (the number of nextedit actions after a rename, in `actions.txt')
;;   NEXTEDIT_EXTRA  elisp evaluated after the snippet (a user's further settings)
;;   NEXTEDIT_OTHER  a file opened first (crossfile)
;;   NEXTEDIT_FILE   the file edited
;;   NEXTEDIT_OUT    a directory: each buffer's final text under its file name;
;;                   the line of point after each press in `cursor.txt' (walk)
;; Any error ends Emacs with a non-zero exit and the message on stderr.

(load (getenv "NEXTEDIT_INIT") nil t)
(when (getenv "NEXTEDIT_EXTRA")
  (eval (car (read-from-string (getenv "NEXTEDIT_EXTRA"))) t))

(defconst nextedit-test-timeout 60)

(defun nextedit-test-wait (what predicate)
  "Process input until PREDICATE holds; an error naming WHAT after the timeout."
  (let ((deadline (+ (float-time) nextedit-test-timeout)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun nextedit-test-open (file)
  "Visit FILE as a person would; wait until eglot manages it."
  (find-file file)
  ;; after a command, Emacs runs `post-command-hook': `eglot-ensure' connects there
  (run-hooks 'post-command-hook)
  (nextedit-test-wait (format "eglot to manage %s" file) #'eglot-managed-p)
  (current-buffer))

(defun nextedit-test-type-over (old new)
  "The developer's edit: replace the first whole-word OLD by NEW, point after it."
  (goto-char (point-min))
  (re-search-forward (concat "\\_<" (regexp-quote old) "\\_>"))
  (replace-match new t t))

(defun nextedit-test-press ()
  "Press C-c n; it must change some buffer."
  (let ((ticks (mapcar (lambda (b) (cons b (buffer-modified-tick b))) (seq-filter #'buffer-file-name (buffer-list)))))
    (execute-kbd-macro (kbd "C-c n"))
    (unless (seq-some (lambda (tick) (/= (buffer-modified-tick (car tick)) (cdr tick))) ticks)
      (error "C-c n changed nothing"))))

(let* ((mode (getenv "NEXTEDIT_MODE"))
       (out (file-name-as-directory (getenv "NEXTEDIT_OUT")))
       (other (and (getenv "NEXTEDIT_OTHER") (nextedit-test-open (getenv "NEXTEDIT_OTHER"))))
       (buffer (nextedit-test-open (getenv "NEXTEDIT_FILE")))
       (lines '()))
  (with-current-buffer buffer
    (cond
     ((equal mode "crossfile")
      (nextedit-test-type-over "area" "surface")
      (nextedit-test-press))
     ((equal mode "walk")
      (nextedit-test-type-over "assertEquals" "assertEqual")
      (dotimes (_ 4)
        (nextedit-test-press)
        (push (number-to-string (line-number-at-pos)) lines))
      (with-temp-file (concat out "cursor.txt")
        (insert (string-join (nreverse lines) "\n") "\n")))
     ((equal mode "count")
      (nextedit-test-type-over "area" "surface")
      (let ((count (length (eglot-code-actions (point) (point) "refactor.rewrite"))))
        (with-temp-file (concat out "actions.txt")
          (insert (format "%d\n" count)))))
     (t (error "Unknown NEXTEDIT_MODE %s" mode))))
  (dolist (b (delq nil (list other buffer)))
    (with-current-buffer b
      (write-region nil nil (concat out (file-name-nondirectory buffer-file-name)) nil 'silent)))
  (with-current-buffer buffer
    (eglot-shutdown (eglot-current-server)))
  (kill-emacs 0))
