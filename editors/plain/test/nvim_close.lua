-- maskd plain-client mode in Neovim's own LSP client, no plugin: run by run.sh.
-- Opens a padFraction amount field with the maskd.openField command, types 12.5, closes the field with the
-- maskd.closeField command (what the "Close maskd field" code action carries), and checks that the pad to 12.50
-- arrives as a workspace/applyEdit Neovim applies, and that the field is gone. Exits 0 on success, 1 on failure.
local H = dofile('plain_helpers.lua')
local function fail(message) H.fail('nvim close', message) end
local function wait_for(what, condition) H.wait_for('nvim close', what, condition) end

local function run()
  local buf, client, id = H.plain_buffer('nvim close', { 'Sum: ' })
  local uri = vim.uri_from_bufnr(buf)

  --- Runs a command as a code action would, and waits for its answer.
  local function command(name, argument)
    local done = false
    client.request('workspace/executeCommand', { command = name, arguments = { argument } }, function(err)
      if err then fail(name .. ': ' .. vim.inspect(err)) end
      done = true
    end, buf)
    wait_for(name, function() return done end)
  end

  command('maskd.openField', {
    textDocument = { uri = uri },
    range = { start = { line = 0, character = 5 }, ['end'] = { line = 0, character = 5 } },
    mask = { number = { group = ',', decimal = '.', fraction = 2, padFraction = true } },
    field = 'sum',
  })
  for _, key in ipairs(vim.split('1234.5', '')) do
    vim.api.nvim_feedkeys('A' .. key .. '\27', 'xt', false)
  end
  wait_for('"Sum: 1,234.5"', function() return vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == 'Sum: 1,234.5' end)

  command('maskd.closeField', { textDocument = { uri = uri }, field = 'sum' })
  wait_for('"Sum: 1,234.50"', function() return vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == 'Sum: 1,234.50' end)
  local fields
  client.request('maskd/fields', { textDocument = { uri = uri } }, function(err, result)
    if err then fail('maskd/fields: ' .. vim.inspect(err)) end
    fields = result
  end, buf)
  wait_for('maskd/fields', function() return fields ~= nil end)
  if #fields ~= 0 then fail('the field is still open: ' .. vim.inspect(fields)) end
  -- Typing on is plain text: nothing formats it, and the echo of the pad was not taken for typing.
  vim.api.nvim_feedkeys('A7\27', 'xt', false)
  H.line_stays('nvim close', buf, 'Sum: 1,234.507')
  H.pass('nvim close', id, 'closing a padFraction field pads it in a plain Neovim client')
end

H.main('nvim close', run)
