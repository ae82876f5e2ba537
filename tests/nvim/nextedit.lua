-- Drive `nextedit lsp` from a real, headless Neovim (run by tests/test_lsp_nvim.py).
--
--   nvim --headless --clean -l tests/nvim/nextedit.lua
--
-- Environment:
--   NEXTEDIT_MODE     inline | codeaction | snippet
--   NEXTEDIT_PYTHON   python that has nextedit installed (inline, codeaction)
--   NEXTEDIT_STATE    --state-dir for the server (inline, codeaction)
--   NEXTEDIT_SNIPPET  a Lua file with the docs' Neovim setup, run as is (snippet)
--   NEXTEDIT_ENCODING the only position encoding to offer (inline, codeaction; default: Neovim's choice)
--   NEXTEDIT_FILE     the Python file to open
--   NEXTEDIT_OUT      where the buffer's final text is written
-- Any failure raises an error: `nvim -l` then exits 1 with the message on stderr.

local mode = assert(os.getenv('NEXTEDIT_MODE'), 'NEXTEDIT_MODE')
local file = assert(os.getenv('NEXTEDIT_FILE'), 'NEXTEDIT_FILE')
local out = assert(os.getenv('NEXTEDIT_OUT'), 'NEXTEDIT_OUT')
local TIMEOUT = 30000

if mode == 'snippet' then
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

vim.cmd.edit(file)
local buf = vim.api.nvim_get_current_buf()
assert(vim.bo[buf].filetype == 'python', 'filetype not detected: ' .. vim.bo[buf].filetype)

local client
assert(
  vim.wait(TIMEOUT, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'nextedit' })[1]
    return client ~= nil and client.initialized
  end, 20),
  'nextedit did not attach'
)
local wanted = os.getenv('NEXTEDIT_ENCODING')
assert(not wanted or client.offset_encoding == wanted, 'negotiated ' .. client.offset_encoding)

-- rename the first `count` (the one after the emoji) by editing the buffer
local function find(word)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find('%f[%w_]' .. word .. '%f[^%w_]')
    if col then
      return row - 1, col - 1 -- 0-based row, byte column
    end
  end
  error('no ' .. word .. ' in the buffer')
end
local row, col = find('count')
vim.api.nvim_buf_set_text(buf, row, col, row, col + #'count', { 'total' })
vim.api.nvim_win_set_cursor(0, { row + 1, col + #'total' })

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

if mode == 'inline' then
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
  -- press the docs' keymap: it asks, applies and accepts asynchronously
  local before = vim.api.nvim_buf_get_changedtick(buf)
  local map = vim.fn.maparg('<leader>n', 'n', false, true)
  assert(map.callback, 'the snippet defines no <leader>n mapping')
  map.callback()
  assert(
    vim.wait(TIMEOUT, function()
      return vim.api.nvim_buf_get_changedtick(buf) ~= before
    end, 20),
    'the keymap applied nothing'
  )
  -- the accept command goes out asynchronously: a round trip after it settles it
  request('textDocument/copilotInlineEdit', position_params())
else
  error('unknown NEXTEDIT_MODE ' .. mode)
end

vim.fn.writefile(vim.api.nvim_buf_get_lines(buf, 0, -1, false), out)
client:stop()
vim.wait(TIMEOUT, function()
  return client:is_stopped()
end, 20)
