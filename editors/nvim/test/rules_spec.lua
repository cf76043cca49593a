-- Field rules: buffers attach as they open where rules apply (setup()'s `rules`, a project's
-- .maskd.json), and the fields the daemon opens behave as the plugin's own.
-- Run: timeout 120 nvim --headless --clean -u test/rules_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api
local maskd = H.maskd
local fields = require('maskd.fields')
local client = require('maskd.client')

-- The project: a .maskd.json at its top (phone values of YAML files), another in `sub/`
-- (CARD= lines of .env files), and the working directory inside it, one folder down, so the
-- root the plugin names is the folder of the file, not the working directory.
local W = vim.fn.resolve(vim.fn.tempname() .. '-rules')
vim.fn.mkdir(W .. '/sub', 'p')
vim.fn.mkdir(W .. '/docs', 'p')
vim.fn.writefile({ '{"rules": [{"files": "**/*.yaml", "match": "^\\\\s*phone:\\\\s*(.*)$", "mask": {"preset": "phone.us"}}]}' },
  W .. '/.maskd.json')
vim.fn.writefile({ '{"rules": [{"files": "*.env", "match": "^CARD=(.*)$", "mask": {"preset": "card"}}]}' },
  W .. '/sub/.maskd.json')
vim.fn.writefile({ 'name: Ann', 'phone: 2015550123', 'card: 4111111111111111' }, W .. '/people.yaml')
vim.fn.writefile({ 'phone: 2015550123', 'card: 4111111111111111' }, W .. '/people.yml')
vim.fn.writefile({ 'CARD=4111111111111111', 'OTHER=4111111111111111' }, W .. '/sub/pay.env')
vim.fn.writefile({ 'phone: 2015550123' }, W .. '/undo.yaml')
vim.cmd('cd ' .. vim.fn.fnameescape(W .. '/docs'))

local SETUP = { rules = { { files = '*.yaml', match = '^card: (.*)$', mask = { preset = 'card' } } } }

local function lines()
  return api.nvim_buf_get_lines(0, 0, -1, false)
end

--- Edits `path` (in the project) and waits until line `row` (0-based) reads `want`.
local function edit_formatted(path, row, want)
  vim.cmd('edit ' .. vim.fn.fnameescape(W .. '/' .. path))
  H.wait(function()
    return lines()[row + 1] == want
  end, path .. ' formatted on open')
  return api.nvim_get_current_buf()
end

--- The daemon's fields of the current buffer (maskd/fields): by the time the answer comes,
--- every didFormat the daemon sent before it has been handled.
local function daemon_fields()
  local bufnr = api.nvim_get_current_buf()
  local got
  client.request(bufnr, 'maskd/fields', function()
    return { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  end, function(err, list)
    got = err and { error = err } or list
  end)
  H.wait(function()
    return got ~= nil
  end, 'the answer to maskd/fields')
  return got
end

local function placeholders(bufnr)
  local out = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(bufnr, fields.ns, 0, -1, { details = true })) do
    table.insert(out, { m[2], m[4].virt_text[1][1] })
  end
  return out
end

H.case('a YAML file opens formatted by a .maskd.json rule and a setup() rule', function()
  local bufnr = edit_formatted('people.yaml', 2, 'card: 4111 1111 1111 1111')
  H.eq({ 'name: Ann', 'phone: +1 (201) 555-0123', 'card: 4111 1111 1111 1111' }, lines(), 'the buffer')
  H.eq(vim.uri_from_fname(W), client.get().workspace_folders[1].uri, 'the workspace folder: the .maskd.json one')
  local list = daemon_fields()
  H.eq(2, #list, 'fields')
  H.eq({ source = vim.uri_from_fname(W) .. '/.maskd.json', index = 0 }, list[1].rule, 'the phone field\'s rule')
  H.eq({ source = 'initializationOptions', index = 0 }, list[2].rule, 'the card field\'s rule')
  -- The plugin knows them as its own: the statusline component, the placeholders (a card
  -- may have up to 19 digits).
  H.eq(2, #fields.list(bufnr), 'fields the plugin shows')
  api.nvim_win_set_cursor(0, { 2, 9 })
  H.eq('maskd 2015550123 [valid]', maskd.status(), 'status() in the phone field')
  H.eq({ { 2, ' ___' } }, placeholders(bufnr), 'placeholders')
  H.eq({ 2, 9 }, api.nvim_win_get_cursor(0), 'the caret')
end)

H.case('typing into a rule field formats it as in any field', function()
  local bufnr = api.nvim_get_current_buf()
  api.nvim_win_set_cursor(0, { 2, 0 })
  H.keys('A')
  H.step('<BS>', 'phone: +1 (201) 555-012', 23, { row = 1, mode = 'i' })
  H.eq({ { 1, '_' }, { 2, ' ___' } }, placeholders(bufnr), 'the placeholders of what is left to fill')
  H.eq('maskd 201555012 [incomplete, next digit]', maskd.status(), 'status()')
  H.step('3', 'phone: +1 (201) 555-0123', 24, { row = 1 })
  H.eq({ { 2, ' ___' } }, placeholders(bufnr), 'placeholders once the phone is complete')
  -- A value typed on a new line opens a field with its first digit.
  H.keys('<Esc>')
  api.nvim_buf_set_lines(bufnr, 3, 3, false, { 'phone: ' })
  api.nvim_win_set_cursor(0, { 4, 0 })
  H.keys('A')
  H.step('5', 'phone: +1 (5', 12, { row = 3 })
  H.type('551234567')
  H.expect('phone: +1 (555) 123-4567', 24, { row = 3 })
  H.eq(3, #daemon_fields(), 'fields')
  H.keys('<Esc>')
end)

H.case('a glob that excludes leaves another file untouched', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(W .. '/people.yml'))
  H.eq({}, daemon_fields(), 'fields of people.yml')
  H.eq({ 'phone: 2015550123', 'card: 4111111111111111' }, lines(), 'people.yml')
end)

H.case('a .maskd.json in a subfolder: its folder joins the workspace', function()
  edit_formatted('sub/pay.env', 0, 'CARD=4111 1111 1111 1111')
  H.eq({ 'CARD=4111 1111 1111 1111', 'OTHER=4111111111111111' }, lines(), 'pay.env')
  local uris = vim.tbl_map(function(f)
    return f.uri
  end, client.get().workspace_folders)
  H.eq({ vim.uri_from_fname(W), vim.uri_from_fname(W .. '/sub') }, uris, 'workspace folders')
end)

H.case('a rule field closed stays closed', function()
  vim.cmd('buffer ' .. vim.fn.fnameescape(W .. '/people.yaml'))
  api.nvim_win_set_cursor(0, { 3, 8 })
  H.command('MaskdClose')
  H.keys('A5<Esc>', { format = false })
  H.eq('card: 4111 1111 1111 11115', lines()[3], 'the card line, typed into')
  local list = daemon_fields()
  H.eq(2, #list, 'fields left')
  H.eq(nil, fields.at(api.nvim_get_current_buf(), 2, 8), 'a field the plugin shows on the card line')
end)

H.case('undoing the formatting a file opened with closes its rule fields', function()
  local bufnr = edit_formatted('undo.yaml', 0, 'phone: +1 (201) 555-0123')
  H.keys('u', { format = false })
  H.eq({ 'phone: 2015550123' }, lines(), 'undo.yaml after u')
  H.eq({}, daemon_fields(), 'fields after u')
  H.eq({}, fields.list(bufnr), 'fields the plugin shows')
end)

H.case('a .maskd.json saved in Neovim takes effect at once, in a new folder and again', function()
  local other = vim.fn.resolve(vim.fn.tempname() .. '-other')
  vim.fn.mkdir(other, 'p')
  vim.fn.writefile({ 'TEL=2015550123', 'FAX=2015550199' }, other .. '/notes.txt')
  vim.cmd('edit ' .. vim.fn.fnameescape(other .. '/notes.txt'))
  local notes = api.nvim_get_current_buf()
  H.eq({}, daemon_fields(), 'fields of notes.txt before')
  local function save_rules(rules)
    vim.cmd('edit ' .. vim.fn.fnameescape(other .. '/.maskd.json'))
    api.nvim_buf_set_lines(0, 0, -1, false, { vim.fn.json_encode({ rules = rules }) })
    vim.cmd('silent write')
  end
  local tel = { files = '*.txt', match = '^TEL=(.*)$', mask = { preset = 'phone.us' } }
  save_rules({ tel })
  H.wait(function()
    return api.nvim_buf_get_lines(notes, 0, 1, false)[1] == 'TEL=+1 (201) 555-0123'
  end, 'notes.txt formatted by the new folder\'s rules')
  H.eq(vim.uri_from_fname(other), client.get().workspace_folders[3].uri, 'the new workspace folder')
  save_rules({ tel, { files = '*.txt', match = '^FAX=(.*)$', mask = { preset = 'phone.us' } } })
  H.wait(function()
    return api.nvim_buf_get_lines(notes, 1, 2, false)[1] == 'FAX=+1 (201) 555-0199'
  end, 'notes.txt formatted by the rule saved next')
  H.eq({ 'TEL=+1 (201) 555-0123', 'FAX=+1 (201) 555-0199' }, api.nvim_buf_get_lines(notes, 0, -1, false), 'notes.txt')
end)

H.case('with no rules and no .maskd.json, opening a file starts no daemon', function()
  client.stop()
  H.wait(function()
    return client.get() == nil
  end, 'the daemon to stop')
  -- The buffers under the project would attach again (their folder has a .maskd.json).
  vim.cmd('silent! %bwipeout!')
  H.setup({})
  local elsewhere = vim.fn.resolve(vim.fn.tempname() .. '-plain')
  vim.fn.mkdir(elsewhere, 'p')
  vim.fn.writefile({ 'phone: 2015550123' }, elsewhere .. '/plain.yaml')
  vim.cmd('edit ' .. vim.fn.fnameescape(elsewhere .. '/plain.yaml'))
  H.eq(nil, client.get(), 'the daemon after opening plain.yaml')
  -- A file under a .maskd.json still attaches, without rules of one's own.
  edit_formatted('sub/pay.env', 0, 'CARD=4111 1111 1111 1111')
  H.eq(true, client.get() ~= nil, 'the daemon runs')
end)

H.run({ setup = SETUP })
