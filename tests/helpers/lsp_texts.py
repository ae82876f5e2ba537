"""Source texts the LSP bridge's tests edit, shared by the pygls client, Neovim and Emacs tests.

``GEOM``/``MAIN``: a function and its caller in another file (a cross-file
rename of ``area``); ``TESTS``: one call repeated on five lines (a repeated
edit walked site by site).
"""

GEOM = "def area(w, h):\n    return w * h\n"
MAIN = "from geom import area\n\nprint(area(2, 3))\nprint(area(4, 5))\n"
TESTS = """\
import unittest


class T(unittest.TestCase):
    def test_a(self):
        self.assertEquals(1, 1)
        self.assertEquals(2, 2)
        self.assertEquals(3, 3)
        self.assertEquals(4, 4)
        self.assertEquals(5, 5)
"""
