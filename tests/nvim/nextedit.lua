-- Drive `nextedit lsp` from a real, headless Neovim (run by tests/test_lsp_nvim.py).
--
--   nvim --headless --clean -l tests/nvim/nextedit.lua
--
-- Environment:
--   NEXTEDIT_MODE     inline | codeaction                      (our own client config)
--                     snippet | snippet-crossfile | snippet-walk | snippet-model (the README's setup, run as is)
--   NEXTEDIT_PYTHON   python that has nextedit installed (inline, codeaction)
--   NEXTEDIT_STATE    --state-dir for the server (inline, codeaction)
--   NEXTEDIT_SNIPPET  a Lua file with the README's Neovim setup (snippet*)
--   NEXTEDIT_ENCODING the only position encoding to offer (inline, codeaction; default: Neovim's choice)
--   NEXTEDIT_FILE     the file to open and edit
--   NEXTEDIT_OTHER    a second file, opened first (snippet-crossfile)
--   NEXTEDIT_OLD, NEXTEDIT_NEW  the developer's edit: the first whole word OLD becomes NEW (snippet-model)
--   NEXTEDIT_OUT      a directory: each buffer's final text is written there under its file name,
--                     the cursor rows after each keypress to `cursor.txt` (snippet-walk)
-- Any failure raises an error: `nvim -l` then exits 1 with the message on stderr.

local mode = assert(os.getenv('NEXTEDIT_MODE'), 'NEXTEDIT_MODE')
local file = assert(os.getenv('NEXTEDIT_FILE'), 'NEXTEDIT_FILE')
local out = assert(os.getenv('NEXTEDIT_OUT'), 'NEXTEDIT_OUT')
local TIMEOUT = 30000

if vim.startswith(mode, 'snippet') then
  dofile(assert(os.getenv('NEXTEDIT_SNIPPET'), 'NEXTEDIT_SNIPPET'))
else
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if os.getenv('NEXTEDIT_ENCODING') then
    capabilities.general.positionEncodings = { os.getenv('NEXTEDIT_ENCODING') }
  end
  vim.lsp.config('nextedit', {
    cmd = { assert(os.getenv('NEXTEDIT_PYTHON')), '-m', 'nextedit', 'lsp', '--state-dir', assert(os.getenv('NEXTEDIT_STATE')) },
    filetypes = { 'python' },
    root_markers = { '.git', 'pyproject.toml' },
    capabilities = capabilities,
  })
  vim.lsp.enable('nextedit')
end

local function attached(buf)
  local client
  assert(
    vim.wait(TIMEOUT, function()
      client = vim.lsp.get_clients({ bufnr = buf, name = 'nextedit' })[1]
      return client ~= nil and client.initialized and vim.lsp.buf_is_attached(buf, client.id)
    end, 20),
    'nextedit did not attach to ' .. vim.api.nvim_buf_get_name(buf)
  )
  return client
end

local other_buf
if os.getenv('NEXTEDIT_OTHER') then
  vim.cmd.edit(os.getenv('NEXTEDIT_OTHER'))
  other_buf = vim.api.nvim_get_current_buf()
  attached(other_buf)
end
vim.cmd.edit(file)
local buf = vim.api.nvim_get_current_buf()
assert(vim.bo[buf].filetype == 'python', 'filetype not detected: ' .. vim.bo[buf].filetype)
local client = attached(buf)
local wanted = os.getenv('NEXTEDIT_ENCODING')
assert(not wanted or client.offset_encoding == wanted, 'negotiated ' .. client.offset_encoding)

-- 0-based row and byte column of the first whole-word `word` in `b`
local function find(b, word)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(b, 0, -1, false)) do
    local col = line:find('%f[%w_]' .. word .. '%f[^%w_]')
    if col then
      return row - 1, col - 1
    end
  end
  error('no ' .. word .. ' in the buffer')
end

-- the developer's edit: replace the first `old` by `new` and leave the cursor after it
local function type_over(old, new)
  local row, col = find(buf, old)
  vim.api.nvim_buf_set_text(buf, row, col, row, col + #old, { new })
  vim.api.nvim_win_set_cursor(0, { row + 1, col + #new })
end

local function request(method, params)
  local response, err = client:request_sync(method, params, TIMEOUT, buf)
  assert(response, method .. ': ' .. tostring(err))
  assert(not response.err, method .. ': ' .. vim.inspect(response.err))
  return response.result
end

local function position_params()
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  params.textDocument.version = vim.lsp.util.buf_versions[buf]
  return params
end

-- press the README's <leader>n: it asks, applies and accepts asynchronously
local function press()
  local ticks = {}
  for _, b in ipairs({ buf, other_buf }) do
    ticks[b] = vim.api.nvim_buf_get_changedtick(b)
  end
  local map = vim.fn.maparg('<leader>n', 'n', false, true)
  assert(map.callback, 'the snippet defines no <leader>n mapping')
  map.callback()
  assert(
    vim.wait(TIMEOUT, function()
      for b, tick in pairs(ticks) do
        if vim.api.nvim_buf_get_changedtick(b) ~= tick then
          return true
        end
      end
      return false
    end, 20),
    'the keymap applied nothing'
  )
  -- the accept command (and the cursor move it causes) went out asynchronously: a round trip settles it
  request('textDocument/copilotInlineEdit', position_params())
end

if mode == 'inline' then
  type_over('count', 'total')
  local result = request('textDocument/copilotInlineEdit', position_params())
  assert(result and #result.edits > 0, 'no inline edit: ' .. vim.inspect(result))
  local edits = result.edits
  assert(edits[1].textDocument.version == vim.lsp.util.buf_versions[buf], 'inline edit for another version')
  client:notify('textDocument/didShowInlineEdit', { item = edits[1] })
  local text_edits = vim.tbl_map(function(e)
    return { range = e.range, newText = e.text }
  end, edits)
  vim.lsp.util.apply_text_edits(text_edits, buf, client.offset_encoding)
  request('workspace/executeCommand', edits[1].command)
elseif mode == 'codeaction' then
  type_over('count', 'total')
  local params = position_params()
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = params.textDocument.uri },
    range = { start = params.position, ['end'] = params.position },
    context = { diagnostics = {}, only = { 'refactor.rewrite' }, triggerKind = 1 },
  })
  assert(actions and #actions > 0, 'no code action')
  local action = vim.iter(actions):find(function(a)
    return a.isPreferred
  end)
  assert(action and action.edit and action.edit.documentChanges, 'no preferred action with documentChanges: ' .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  request('workspace/executeCommand', action.command)
elseif mode == 'snippet' then
  type_over('count', 'total')
  press()
elseif mode == 'snippet-model' then
  -- an edit synthesis has nothing to add to: the keymap applies what the model answers
  type_over(assert(os.getenv('NEXTEDIT_OLD')), assert(os.getenv('NEXTEDIT_NEW')))
  press()
elseif mode == 'snippet-crossfile' then
  -- rename the function where it is defined, typing the new name; the other file's uses must follow
  local row, col = find(buf, 'area')
  vim.api.nvim_buf_set_text(buf, row, col, row, col + #'area', { '' })
  for i = 1, #'surface' do
    vim.api.nvim_buf_set_text(buf, row, col + i - 1, row, col + i - 1, { ('surface'):sub(i, i) })
  end
  vim.api.nvim_win_set_cursor(0, { row + 1, col + #'surface' })
  -- the trap: both buffers at the same version number (no-op edits in the other file until they are)
  local versions = vim.lsp.util.buf_versions
  local print_row = find(other_buf, 'print')
  while versions[other_buf] < versions[buf] do
    vim.api.nvim_buf_set_text(other_buf, print_row, 0, print_row, #'print', { 'print' })
  end
  assert(versions[other_buf] == versions[buf], 'versions ' .. versions[other_buf] .. ' and ' .. versions[buf])
  -- let Neovim send the other buffer's (debounced) changes, as it has long done when a person gets there
  local response = client:request_sync('textDocument/copilotInlineEdit', {
    textDocument = { uri = vim.uri_from_bufnr(other_buf), version = versions[other_buf] },
    position = { line = 0, character = 0 },
  }, TIMEOUT, other_buf)
  assert(response and not response.err, 'flushing the other buffer: ' .. vim.inspect(response))
  press()
elseif mode == 'snippet-walk' then
  -- one site of a repeated edit by hand, then the keymap for each other site
  type_over('assertEquals', 'assertEqual')
  local rows = {}
  for press_number = 1, 4 do
    local before = vim.api.nvim_win_get_cursor(0)[1]
    press()
    if press_number < 4 then -- the cursor walks on to the next site
      assert(
        vim.wait(TIMEOUT, function()
          return vim.api.nvim_win_get_cursor(0)[1] ~= before
        end, 20),
        'the cursor stayed on row ' .. before .. ' after press ' .. press_number
      )
    end
    table.insert(rows, tostring(vim.api.nvim_win_get_cursor(0)[1]))
  end
  vim.fn.writefile(rows, out .. '/cursor.txt')
else
  error('unknown NEXTEDIT_MODE ' .. mode)
end

for _, b in ipairs({ buf, other_buf }) do
  vim.fn.writefile(vim.api.nvim_buf_get_lines(b, 0, -1, false), out .. '/' .. vim.fs.basename(vim.api.nvim_buf_get_name(b)))
end
client:stop()
vim.wait(TIMEOUT, function()
  return client:is_stopped()
end, 20)
