-- maskd in Neovim 0.11's built-in client set up the 0.11 way, no plugin commands: run by run.sh under 0.11.
-- MASKD_SETUP=enable: editors/README.md's `vim.lsp.enable('maskd')` with the plugin's lsp/maskd.lua on 'runtimepath';
-- MASKD_SETUP=config: a person's own vim.lsp.config (no documentChanges, Neovim's 150 ms debounce).
-- A .maskd.json rule for phone: and card: lines. `o`, `phone: `, a pause (the rule opens the field), then
-- 2015550123 as one burst; then 16 card digits at 15 ms a key. Both lines must end in form, no message shown.
-- The keys are typed in Insert mode from timers once Neovim runs its loop, as a person's come: the daemon's edits
-- arrive between them. Exits 0 on success, 1 on failure.
local H = dofile('plain_helpers.lua')
local name = 'nvim 0.11 ' .. (os.getenv('MASKD_SETUP') or 'enable')
local function fail(message) H.fail(name, message) end
local run_coroutine

--- Lets Neovim's loop run (keys typed, messages handled) for `ms` milliseconds.
local function sleep(ms)
  vim.defer_fn(function() coroutine.resume(run_coroutine) end, ms)
  coroutine.yield()
end

--- Waits up to 5 s for `condition`, the loop running meanwhile.
local function wait_for(what, condition)
  for _ = 1, 500 do
    if condition() then return end
    sleep(10)
  end
  fail('timed out waiting for ' .. (type(what) == 'function' and what() or what))
end

--- Types `keys` as a person does, `gap` ms apart.
local function type_keys(keys, gap)
  for _, key in ipairs(vim.split(keys, '')) do
    vim.api.nvim_input(key)
    sleep(gap)
  end
end

local function run()
  if vim.fn.has('nvim-0.11') == 0 then
    io.stdout:write('SKIP ' .. name .. ': needs Neovim 0.11\n')
    return vim.cmd('qall!')
  end
  vim.o.showmode = false
  -- The script is the init file: file types are detected only after it, unless turned on here.
  vim.cmd('filetype on')
  local project = vim.fn.tempname()
  vim.fn.mkdir(project, 'p')
  vim.fn.writefile({ vim.fn.json_encode({ rules = {
    { files = '**/*.yaml', match = '^\\s*phone:\\s*(.*)$', mask = { preset = 'phone.us' } },
    { files = '**/*.yaml', match = '^\\s*card:\\s*(.*)$', mask = { preset = 'card' } },
  } }) }, project .. '/.maskd.json')
  vim.fn.writefile({ 'name: Ann' }, project .. '/people.yaml')

  if os.getenv('MASKD_SETUP') == 'config' then
    vim.lsp.config('maskd', { cmd = { H.maskd, '--stdio' }, filetypes = { 'yaml', 'sh', 'text' },
      root_markers = { '.maskd.json' }, init_options = { edits = 'applyEdit' } })
  else
    -- editors/README.md: the plugin on 'runtimepath' gives lsp/maskd.lua; only the command is this test's.
    vim.opt.runtimepath:prepend(vim.fn.fnamemodify('../../nvim', ':p'))
    vim.lsp.config('maskd', { cmd = { H.maskd, '--stdio' } })
  end
  vim.lsp.enable('maskd')
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/people.yaml'))
  local buf = vim.api.nvim_get_current_buf()
  wait_for('the client to start', function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = 'maskd' })[1]
    return c ~= nil and c.initialized
  end)
  vim.cmd('messages clear')
  local function line(n) return vim.api.nvim_buf_get_lines(buf, n - 1, n, false)[1] end

  -- A new rule line, a pause (the field opens, empty), then the number as one burst.
  vim.api.nvim_input('Go')
  type_keys('phone: ', 60)
  sleep(400)
  vim.api.nvim_input('2015550123')
  wait_for(function() return '"phone: +1 (201) 555-0123", now "' .. tostring(line(2)) .. '"' end,
    function() return line(2) == 'phone: +1 (201) 555-0123' end)

  -- A card number at 15 ms a key.
  vim.api.nvim_input('<Esc>o')
  type_keys('card: ', 60)
  sleep(400)
  type_keys('4111111111111111', 15)
  wait_for(function() return '"card: 4111 1111 1111 1111", now "' .. tostring(line(3)) .. '"' end,
    function() return line(3) == 'card: 4111 1111 1111 1111' end)
  vim.api.nvim_input('<Esc>')
  sleep(600)
  if line(2) ~= 'phone: +1 (201) 555-0123' or line(3) ~= 'card: 4111 1111 1111 1111' then
    fail('the lines became ' .. vim.inspect(vim.api.nvim_buf_get_lines(buf, 0, -1, false)))
  end
  -- Nothing printed: no "Buffer ... newer than edits.", no "Workspace edit ...", no quit warning.
  local messages = vim.trim(vim.fn.execute('messages'))
  if messages ~= '' then fail('messages shown: ' .. messages) end

  for _, c in ipairs(vim.lsp.get_clients({ name = 'maskd' })) do H.stop(c.id) end
  vim.fn.delete(project, 'rf')
  io.stdout:write('PASS ' .. name .. ': vim.lsp.enable, a burst into a rule line just opened and 16 card digits at '
    .. '15 ms a key end in form, no message\n')
  vim.cmd('qall!')
end

-- Once Neovim runs its loop, so that typed keys are handled between the daemon's messages.
vim.api.nvim_create_autocmd('VimEnter', { once = true, nested = true, callback = function()
  run_coroutine = coroutine.create(function() H.main(name, run) end)
  local ok, err = coroutine.resume(run_coroutine)
  if not ok then fail(tostring(err)) end
end })
