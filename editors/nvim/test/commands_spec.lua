-- The commands, completion, the statusline component, :checkhealth, and the didFormat
-- handler's refusals (stale versions, its own echo).
-- Run: timeout 120 nvim --headless --clean -u test/commands_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api
local maskd = H.maskd
local fields = require('maskd.fields')
local client = require('maskd.client')

local PHONE = '+1 ([000]) [000]-[0000]'

local function lines()
  return api.nvim_buf_get_lines(0, 0, -1, false)
end

H.case('one daemon per Neovim: setup() again reuses it', function()
  H.buffer({ '' })
  local id = client.get().id
  H.setup({ presets = { zip = '[00000]' } })
  H.eq(id, client.get().id, 'client id after a second setup()')
  local count = 0
  for _, c in pairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    if c.name == 'maskd' then
      count = count + 1
    end
  end
  H.eq(1, count, 'maskd clients')
end)

H.case('a field opened while the daemon is still starting', function()
  H.buffer({ '' })
  client.stop()
  H.wait(function()
    return client.get() == nil
  end, 'the daemon to stop')
  vim.cmd('enew!')
  api.nvim_buf_set_name(0, vim.fn.tempname() .. '/starting.txt')
  api.nvim_buf_set_lines(0, 0, -1, false, { 'x 5551234567' })
  api.nvim_win_set_cursor(0, { 1, 4 })
  -- Starts the daemon, attaches the buffer and queues the request until initialize is
  -- answered; the preset name resolves once the daemon has listed its presets.
  H.command('MaskdField phone.us')
  H.eq(true, client.ready(), 'ready')
  H.eq({ 'x +1 (555) 123-4567' }, lines(), 'buffer')
end)

H.case('the daemon restarted under an attached buffer', function()
  H.buffer({ '' })
  H.command('MaskdField ' .. PHONE)
  H.keys('i')
  H.type('555')
  H.keys('<Esc>')
  client.stop()
  H.wait(function()
    return client.get() == nil
  end, 'the daemon to stop')
  H.sleep(50)
  -- The buffer changes while no daemon runs; the new one gets its text in didOpen.
  H.keys('A1<Esc>', { format = false })
  H.eq({ '+1 (5551' }, lines(), 'buffer without a daemon')
  H.command(function()
    api.nvim_input('0v$:MaskdField ' .. PHONE .. '<CR>')
  end)
  H.eq({ '+1 (555) 1' }, lines(), 'buffer after the field is opened again')
  H.keys('A')
  H.step('2', '+1 (555) 12', 11)
  H.keys('<Esc>')
end)

H.case(':MaskdField on the word under the cursor', function()
  H.buffer({ 'tel 15551234567 home' })
  api.nvim_win_set_cursor(0, { 1, 8 })
  H.command('MaskdField ' .. PHONE)
  H.eq({ 'tel +1 (555) 123-4567 home' }, lines(), 'buffer')
  -- The daemon puts the cursor at the field's end.
  H.eq({ 1, 21 }, api.nvim_win_get_cursor(0), 'cursor')
  api.nvim_win_set_cursor(0, { 1, 10 })
  H.eq('maskd 5551234567 [valid]', maskd.status(), 'status() on the field')
  api.nvim_win_set_cursor(0, { 1, 0 })
  H.eq('', maskd.status(), 'status() off the field')
end)

H.case(':MaskdField on formatted text: the daemon takes the widest run that fits, not the label', function()
  H.buffer({ 'Tel: +1 (555) 123-4567 x' })
  api.nvim_win_set_cursor(0, { 1, 10 })
  H.command('MaskdField phone.us')
  H.eq({ 'Tel: +1 (555) 123-4567 x' }, lines(), 'buffer')
  local r = fields.list(api.nvim_get_current_buf())[1].range
  H.eq({ 0, 5, 22 }, { r.start.line, r.start.character, r['end'].character }, 'range')
end)

H.case(':MaskdField over lines: the daemon splits the range, lines with nothing skipped', function()
  H.buffer({ 'Tel: 5551234567', '  2015550123  ', '', '   ', '3125550199' })
  H.command('2,5MaskdField phone.us')
  H.eq({ 'Tel: 5551234567', '  +1 (201) 555-0123  ', '', '   ', '+1 (312) 555-0199' }, lines(), 'buffer')
  H.eq(2, #fields.list(api.nvim_get_current_buf()), 'fields')
end)

H.case(':MaskdField on a Visual selection, with a preset name', function()
  H.buffer({ 'call 5551234567 now' })
  H.command(function()
    api.nvim_input('0wve:MaskdField phone.us<CR>')
  end)
  H.eq({ 'call +1 (555) 123-4567 now' }, lines(), 'buffer')
  H.eq('n', api.nvim_get_mode().mode, 'mode')
end)

H.case('a line range that is not the last selection is refused', function()
  H.buffer({ '555', '1234' })
  local messages = {}
  local notify = vim.notify
  vim.notify = function(msg)
    table.insert(messages, msg)
  end
  H.keys('ggvj<Esc>')
  vim.cmd('2MaskdField ' .. PHONE)
  vim.notify = notify
  H.eq({ 'maskd: give no range, or select the text in Visual mode' }, messages, 'messages')
  H.eq({ '555', '1234' }, lines(), 'buffer')
end)

H.case('your own presets from setup{presets = ...}', function()
  H.buffer({ '123-45' })
  H.command('MaskdField zip')
  H.eq({ '12345' }, lines(), 'buffer')
end)

H.case('completion of preset names', function()
  H.buffer({ '' })
  local got = vim.fn.getcompletion('MaskdField phone.', 'cmdline')
  local phones = vim.tbl_contains(got, 'phone.us') and vim.tbl_contains(got, 'phone.cn')
  H.eq(true, phones, 'phone presets in ' .. vim.inspect(got))
  H.eq({ 'zip' }, vim.fn.getcompletion('MaskdSetMask zi', 'cmdline'), 'own presets')
  H.eq(true, vim.tbl_contains(vim.fn.getcompletion('MaskdField ph', 'cmdline'), 'phone'), 'the phone preset')
  H.eq({ 'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GT', 'GU', 'GW', 'GY' },
    vim.fn.getcompletion('MaskdField phone G', 'cmdline'), 'region codes after phone')
  H.eq({ preset = 'phone', region = 'GB' }, maskd.resolve_mask('phone gb'), 'phone with a region')
  H.eq({ 'GB', 'GE', 'GF', 'GG', 'GI', 'GL', 'GN', 'GP', 'GR', 'GS', 'GT', 'GU', 'GW' },
    vim.fn.getcompletion('MaskdField postal g', 'cmdline'), 'the postal preset\'s region codes after postal')
  H.eq({ preset = 'postal', region = 'GB' }, maskd.resolve_mask('postal gb'), 'postal with a region')
  H.eq(true, vim.tbl_contains(maskd.preset_names(), 'card'), 'card among ' .. vim.inspect(maskd.preset_names()))
end)

H.case(':MaskdInfo echoes the state of the field under the cursor', function()
  H.buffer({ '' })
  H.command('MaskdField ' .. PHONE)
  H.keys('i')
  H.type('555')
  H.keys('<Esc>')
  vim.cmd('messages clear')
  H.command('MaskdInfo')
  local messages = vim.fn.execute('messages')
  H.eq(true, messages:find('maskd 555 [incomplete, next digit]', 1, true) ~= nil, 'messages: ' .. messages)
  H.eq(true, messages:find('to fill ) ___-____', 1, true) ~= nil, 'messages: ' .. messages)
end)

H.case(':MaskdFields fills the quickfix list', function()
  H.buffer({ 'phone: 5551234567', 'card: 4111111111111111' })
  api.nvim_win_set_cursor(0, { 1, 8 })
  H.command('MaskdField phone.us')
  api.nvim_win_set_cursor(0, { 2, 8 })
  H.command('MaskdField [0000] [0000] [0000] [0000] [999]')
  H.eq({ 'phone: +1 (555) 123-4567', 'card: 4111 1111 1111 1111' }, lines(), 'buffer')
  local bufnr = api.nvim_get_current_buf()
  H.command('MaskdFields')
  local qf = vim.fn.getqflist()
  H.eq(2, #qf, 'quickfix items')
  H.eq({ bufnr, 1, 8 }, { qf[1].bufnr, qf[1].lnum, qf[1].col }, 'first item')
  H.eq({ bufnr, 2, 7 }, { qf[2].bufnr, qf[2].lnum, qf[2].col }, 'second item')
  H.eq(true, qf[1].text:find('+1 (555) 123-4567', 1, true) == 1, 'first text: ' .. qf[1].text)
  vim.cmd('cclose')
end)

H.case(':MaskdClose leaves the text and stops formatting', function()
  H.buffer({ '' })
  H.command('MaskdField ' .. PHONE)
  H.keys('i')
  H.type('5551')
  H.expect('+1 (555) 1', 10)
  H.keys('<Esc>')
  H.command('MaskdClose')
  H.eq({}, fields.list(api.nvim_get_current_buf()), 'recorded fields')
  H.keys('A2x', { format = false })
  H.expect('+1 (555) 12x', 12)
  H.keys('<Esc>')
end)

H.case(':MaskdClose pads a padFraction number: 1,234.5 becomes 1,234.50, the caret after the pad', function()
  H.buffer({ '' })
  H.command('MaskdField {"number": {"group": ",", "decimal": ".", "fraction": 2, "padFraction": true}}')
  H.keys('i')
  H.type('1234.5')
  H.expect('1,234.5', 7)
  local bufnr = api.nvim_get_current_buf()
  local before = maskd._stats(bufnr)
  local applied, echo = before.applied, before.echo
  -- Closed from Insert mode at the end of the number: the caret goes after the pad.
  H.command(function()
    api.nvim_input('<Cmd>MaskdClose<CR>')
  end)
  H.expect('1,234.50', 8, { mode = 'i' })
  H.eq(applied + 1, maskd._stats(bufnr).applied, 'the closing didFormat applied')
  H.eq({}, fields.list(bufnr), 'recorded fields')
  -- Its echo brings no didFormat, and typing on is plain text.
  H.sleep(100)
  H.eq(echo, maskd._stats(bufnr).echo, 'no didFormat for the echo')
  H.keys('7', { format = false })
  H.expect('1,234.507', 9)
  H.keys('<Esc>')
  -- In Normal mode on the last digit of `12`, the caret stays on it.
  H.buffer({ '' })
  H.command('MaskdField {"number": {"fraction": 2, "padFraction": true}}')
  H.keys('i')
  H.type('12')
  H.keys('<Esc>')
  H.expect('12', 1)
  H.command('MaskdClose')
  H.wait(function()
    return api.nvim_get_current_line() == '12.00'
  end, 'the pad')
  H.expect('12.00', 1)
  H.eq({}, fields.list(api.nvim_get_current_buf()), 'recorded fields')
end)

H.case('the placeholder is virtual text after the field', function()
  H.buffer({ 'Tel: ' })
  api.nvim_win_set_cursor(0, { 1, 4 })
  H.command('MaskdField ' .. PHONE)
  api.nvim_win_set_cursor(0, { 1, 4 })
  H.keys('a')
  H.type('55')
  local marks = api.nvim_buf_get_extmarks(0, fields.ns, 0, -1, { details = true })
  H.eq(1, #marks, 'extmarks')
  H.eq({ 0, 11 }, { marks[1][2], marks[1][3] }, 'extmark position')
  H.eq('_) ___-____', marks[1][4].virt_text[1][1], 'placeholder')
  H.eq(vim.fn.has('nvim-0.10') == 1 and 'inline' or 'overlay', marks[1][4].virt_text_pos, 'virt_text_pos')
  H.type('51234567')
  marks = api.nvim_buf_get_extmarks(0, fields.ns, 0, -1, { details = true })
  H.eq(0, #marks, 'no placeholder once complete')
  H.keys('<Esc>')
end)

H.case('didFormat for a version the buffer has moved past is dropped', function()
  local bufnr = H.buffer({ '' })
  H.command('MaskdField ' .. PHONE)
  H.keys('i')
  H.type('5')
  H.expect('+1 (5', 5)
  local stats = maskd._stats(bufnr)
  local stale = stats.stale
  local uri = vim.uri_from_bufnr(bufnr)
  local version = require('maskd.edits').version(bufnr)
  local edit = { range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }, newText = 'X' }
  maskd.on_did_format(nil, {
    textDocument = { uri = uri, version = version - 1 },
    edits = { edit },
    cursor = { line = 0, character = 0 },
    fields = {},
  })
  H.expect('+1 (5', 5)
  H.eq(stale + 1, stats.stale, 'stale count')
  -- The edits the plugin applied for the last keystroke made versions of its own: a
  -- didFormat for one of them would be an echo, and is ignored too.
  local own = vim.tbl_keys(fields.buf(bufnr).own)
  H.eq(true, #own > 0, 'own versions recorded')
  local echo = stats.echo
  maskd.on_did_format(nil, {
    textDocument = { uri = uri, version = own[1] },
    edits = { edit },
    cursor = { line = 0, character = 0 },
    fields = {},
  })
  H.expect('+1 (5', 5)
  H.eq(echo + 1, stats.echo, 'echo count')
  H.keys('<Esc>')
end)

H.case('no loop: after the last keystroke nothing more changes', function()
  local bufnr = H.buffer({ '' })
  H.command('MaskdField ' .. PHONE)
  H.keys('i')
  H.type('5551234567')
  local stats = maskd._stats(bufnr)
  local tick, formats = api.nvim_buf_get_changedtick(bufnr), stats.formats
  H.sleep(300)
  H.eq(tick, api.nvim_buf_get_changedtick(bufnr), 'changedtick')
  H.eq(formats, stats.formats, 'didFormat count')
  H.eq(0, stats.echo, 'didFormat for the plugin’s own edits')
  H.eq(0, stats.stale, 'stale didFormat')
  H.eq(10, stats.applied, 'didFormat applied (one per keystroke)')
  H.keys('<Esc>')
end)

H.case("the daemon's copy follows the buffer through other edits", function()
  H.buffer({ 'first line', 'tel 5551234567 ok', 'last line' })
  api.nvim_win_set_cursor(0, { 2, 6 })
  H.command('MaskdField ' .. PHONE)
  H.eq('tel +1 (555) 123-4567 ok', lines()[2], 'field opened')
  local function agree(after)
    local list
    H.command(function()
      maskd.fields_qf(function(_, l)
        list = l
      end)
    end)
    vim.cmd('cclose')
    H.eq(1, #list, 'fields after ' .. after)
    local f = list[1]
    local text = lines()[f.range.start.line + 1] or ''
    local got = text:sub(f.range.start.character + 1, f.range['end'].character)
    H.eq('+1 (555) 123-4567', f.text, 'field text after ' .. after)
    H.eq(f.text, got, 'buffer under the field after ' .. after .. ' ' .. vim.inspect(f.range) .. vim.inspect(lines()))
  end
  -- Edits that touch no field: the daemon only has to follow them.
  local edits = {
    { 'ggOabove<Esc>', 'a line opened above' },
    { 'Goend<Esc>', 'a line appended at the end' },
    { 'ggdd', 'the first line deleted' },
    { 'ggJ', 'two lines joined' },
    { 'u', 'undo' },
    { '<C-r>', 'redo' },
    { 'ggyyjp', 'a line put below' },
    { 'G>>', 'a line indented' },
    { ':%s/line/LINE/g<CR>', ':substitute on every line' },
    { 'ggx', 'a character deleted before' },
  }
  for _, e in ipairs(edits) do
    H.keys(e[1], { format = false })
    agree(e[2])
  end
end)

H.case(':checkhealth maskd', function()
  H.buffer({ '' })
  vim.cmd('checkhealth maskd')
  local text = table.concat(lines(), '\n')
  vim.cmd('bwipeout!')
  H.eq(true, text:find('client %d+ running') ~= nil, 'health report:\n' .. text)
  H.eq(true, text:find('ERROR') == nil and text:find('WARNING') == nil, 'no error or warning in:\n' .. text)
  H.eq(true, text:find('didChange comes from maskd.sync', 1, true) ~= nil, 'sync reported in:\n' .. text)
end)

H.case(':checkhealth vim.deprecated: the plugin uses nothing deprecated', function()
  if vim.fn.has('nvim-0.11') == 0 then
    return -- the check (and the deprecations it reports) came with 0.11
  end
  H.buffer({ '' })
  vim.cmd('checkhealth vim.deprecated')
  local text = table.concat(lines(), '\n')
  vim.cmd('bwipeout!')
  H.eq(true, text:find('maskd', 1, true) == nil and text:find('WARNING') == nil, 'deprecations reported:\n' .. text)
end)

H.case(':help maskd', function()
  -- Tags are made in a copy, so the test leaves no doc/tags behind.
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/doc', 'p')
  vim.fn.writefile(vim.fn.readfile(H.plugin_dir .. '/doc/maskd.txt'), dir .. '/doc/maskd.txt')
  vim.cmd('helptags ' .. vim.fn.fnameescape(dir .. '/doc'))
  vim.opt.runtimepath:append(dir)
  for _, tag in ipairs({ 'maskd.txt', 'maskd-setup', ':MaskdField', 'maskd.status()', 'maskd-sync', 'maskd-limits', 'maskd-restart', 'maskd.open_fields()' }) do
    vim.cmd('help ' .. tag)
    H.eq('help', vim.bo.buftype, 'buffer type for :help ' .. tag)
    vim.cmd('helpclose')
  end
end)

H.run({ setup = { presets = { zip = '[00000]' } } })
