-- maskd field rules in Neovim's own LSP client, no plugin and no command: run by run.sh.
-- A project with a .maskd.json; opening its YAML file formats the phone value the rule finds, a phone typed
-- on a new line becomes a field as it is typed, and the line the rule does not match is left alone.
-- Exits 0 on success, 1 on failure.
local H = dofile('plain_helpers.lua')
local function fail(message) H.fail('nvim rules', message) end
local function wait_for(what, condition) H.wait_for('nvim rules', what, condition) end

local function run()
  vim.o.showmode = false
  local project = vim.fn.tempname()
  vim.fn.mkdir(project, 'p')
  vim.fn.writefile({ vim.fn.json_encode({ rules = {
    { files = '**/*.yaml', match = '^\\s*phone:\\s*(.*)$', mask = { preset = 'phone.us' } },
  } }) }, project .. '/.maskd.json')
  vim.fn.writefile({ 'name: Ann', 'phone: 5551234567', 'note: 5551234567' }, project .. '/people.yaml')
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/people.yaml'))
  local buf = vim.api.nvim_get_current_buf()

  -- editors/README.md's root for any Neovim: the folder of the nearest .maskd.json above the file, else (no
  -- file found: an empty name) the working directory.
  local function root_of(file)
    return vim.fn.fnamemodify(vim.fn.findfile('.maskd.json', vim.fn.fnamemodify(file, ':p:h') .. ';'), ':p:h')
  end
  local root = root_of(vim.api.nvim_buf_get_name(buf))
  if root ~= project then fail('the root is ' .. root .. ', not ' .. project) end
  local elsewhere = vim.fn.tempname()
  vim.fn.mkdir(elsewhere, 'p')
  if root_of(elsewhere .. '/x.yaml') ~= vim.fn.getcwd() then fail('without a .maskd.json the root is ' .. root_of(elsewhere .. '/x.yaml')) end
  vim.fn.delete(elsewhere, 'rf')

  local id = H.start('nvim rules', root, buf)

  local function line(n) return vim.api.nvim_buf_get_lines(buf, n - 1, n, false)[1] end
  wait_for('the rule to format line 2', function() return line(2) == 'phone: +1 (555) 123-4567' end)
  if line(3) ~= 'note: 5551234567' then fail('line 3 became ' .. tostring(line(3))) end

  -- A new line typed key by key: the field opens with the first digit and stays in form.
  vim.api.nvim_feedkeys('Gophone: \27', 'xt', false)
  for _, key in ipairs(vim.split('5559876543', '')) do
    local before = line(4)
    vim.api.nvim_feedkeys('A' .. key .. '\27', 'xt', false)
    wait_for('line 4 to change after ' .. key, function() return line(4) ~= before end)
  end
  wait_for('line 4 in form', function() return line(4) == 'phone: +1 (555) 987-6543' end)
  vim.wait(200)
  if line(4) ~= 'phone: +1 (555) 987-6543' then fail('line 4 became ' .. tostring(line(4))) end

  H.stop(id)
  vim.fn.delete(project, 'rf')
  io.stdout:write('PASS nvim rules: a .maskd.json rule formats a YAML file in a plain Neovim client, no command\n')
  vim.cmd('qall!')
end

local ok, err = xpcall(run, debug.traceback)
if not ok then fail(tostring(err)) end
