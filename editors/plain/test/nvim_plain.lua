-- maskd plain-client mode in Neovim's own LSP client, no plugin: run by run.sh.
-- Opens a card field with the maskd.openField command, types a card number key by key at the end
-- of the line, and checks that the buffer stays in form through workspace/applyEdit alone and that
-- the diagnostics go from a hint to nothing. Exits 0 on success, 1 on failure.
local H = dofile('plain_helpers.lua')
local function fail(message) H.fail('nvim', message) end
local function wait_for(what, condition) H.wait_for('nvim', what, condition) end

local function run()
  local buf, client, id = H.plain_buffer('nvim', { 'Card: ' })

  local done = false
  client.request('workspace/executeCommand', {
    command = 'maskd.openField',
    arguments = { {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = 0, character = 6 }, ['end'] = { line = 0, character = 6 } },
      mask = { preset = 'card' },
    } },
  }, function(err) if err then fail('executeCommand: ' .. vim.inspect(err)) end done = true end, buf)
  wait_for('maskd.openField', function() return done end)
  wait_for('the first hint', function() return #vim.diagnostic.get(buf) == 1 end)
  local hint = vim.diagnostic.get(buf)[1]
  if hint.severity ~= vim.diagnostic.severity.HINT or hint.source ~= 'maskd' then
    fail('expected a maskd hint, got ' .. vim.inspect(hint))
  end

  local expected = { '4', '41', '411', '4111', '4111 1', '4111 11', '4111 111', '4111 1111', '4111 1111 1',
    '4111 1111 11', '4111 1111 111', '4111 1111 1111', '4111 1111 1111 1', '4111 1111 1111 11',
    '4111 1111 1111 111', '4111 1111 1111 1111' }
  for i, key in ipairs(vim.split('4111111111111111', '')) do
    vim.api.nvim_feedkeys('A' .. key .. '\27', 'xt', false)
    local want = 'Card: ' .. expected[i]
    wait_for('"' .. want .. '"', function() return vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == want end)
  end
  wait_for('the diagnostics to clear', function() return #vim.diagnostic.get(buf) == 0 end)
  -- Nothing more arrives: the echo of the last edit was not formatted again.
  H.line_stays('nvim', buf, 'Card: 4111 1111 1111 1111')
  H.pass('nvim', id, 'a card number typed into a plain Neovim client stays in form')
end

H.main('nvim', run)
