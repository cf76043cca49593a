-- Changes to a field's whole line, made with Normal-mode commands: `dd` and `u`, `S` and
-- `cc` then typing, `J`, `p` of a yanked field line, and undo and redo through all of them.
-- The text is always exactly what the editor's own command made, and every state the person
-- made stays reachable with `u` and <C-r>. Run: timeout 120 nvim --headless --clean -u test/lines_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api
local fields = require('maskd.fields')

local TEL = 'Tel: +1 (201) 555-0123'

local function lines()
  return api.nvim_buf_get_lines(0, 0, -1, false)
end

--- Feeds `keys` as typed, whatever the daemon answers, and waits until it has answered.
local function press(keys)
  H.keys(keys, { format = false, any = true })
  H.settle()
end

--- Asserts the buffer's lines and the cursor (0-based row, UTF-16 offset in its line).
local function expect(want, row, caret, what)
  H.eq(want, lines(), 'lines after ' .. what)
  local c, crow = H.caret()
  H.eq({ row, caret }, { crow, c }, 'cursor (row, offset) after ' .. what)
end

--- The placeholders drawn, as {row, text}.
local function drawn()
  local out = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(0, fields.ns, 0, -1, { details = true })) do
    table.insert(out, { m[2], m[4].virt_text[1][1] })
  end
  return out
end

--- `Name: Bob` / `Tel: +1 (201) 555-0123` (a phone.us field after `Tel: `, typed) /
--- `Card: 3782 822463 10005`, in Normal mode on the field's line.
local function form()
  H.buffer({ 'Name: Bob', 'Tel: ', 'Card: 3782 822463 10005' })
  api.nvim_win_set_cursor(0, { 2, 4 })
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('2015550123')
  H.keys('<Esc>')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 21, 'typing the phone')
end

H.case('dd then u gives the line back exactly; the deleted field is not drawn', function()
  form()
  press('dd')
  expect({ 'Name: Bob', 'Card: 3782 822463 10005' }, 1, 21, 'dd')
  H.eq({}, drawn(), 'placeholders after dd')
  H.eq({}, fields.list(0), 'fields after dd')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 21, 'u')
  H.eq({}, fields.list(0), 'fields after u: the line comes back as text')
  press('<C-r>')
  expect({ 'Name: Bob', 'Card: 3782 822463 10005' }, 1, 21, '<C-r>')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 21, 'u again')
  -- The person's other states are all still there.
  press('u')
  expect({ 'Name: Bob', 'Tel: ', 'Card: 3782 822463 10005' }, 1, 4, 'u of the typing')
  press('<C-r>')
  press('<C-r>')
  expect({ 'Name: Bob', 'Card: 3782 822463 10005' }, 1, 21, 'two <C-r>')
end)

H.case('dd of a line with a half-typed field forgets it: no placeholder on the next line', function()
  H.buffer({ 'Name: Bob', 'Tel: ', 'Card: 3782 822463 10005' })
  api.nvim_win_set_cursor(0, { 2, 4 })
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('201')
  H.keys('<Esc>')
  H.eq({ { 1, '___-____' } }, vim.tbl_map(function(d)
    return { d[1], d[2]:sub(-8) }
  end, drawn()), 'the placeholder of the half-typed field')
  -- Neovim keeps the cursor's column through dd and its undo.
  local col = H.caret()
  local typed = lines()[2]
  H.eq('Tel: +1 (201', typed, 'typed')
  press('dd')
  expect({ 'Name: Bob', 'Card: 3782 822463 10005' }, 1, col, 'dd')
  H.eq({}, drawn(), 'placeholders after dd')
  H.eq({}, fields.list(0), 'fields after dd')
  press('u')
  expect({ 'Name: Bob', typed, 'Card: 3782 822463 10005' }, 1, col, 'u')
  H.eq({}, drawn(), 'placeholders after u')
end)

H.case('S on a field line then typing a sentence keeps every letter', function()
  form()
  press('S')
  H.eq('i', api.nvim_get_mode().mode, 'mode after S')
  for _, ch in ipairs(vim.fn.split('Hello world', '\\zs')) do
    press(H.literal(ch))
  end
  expect({ 'Name: Bob', 'Hello world', 'Card: 3782 822463 10005' }, 1, 11, 'S and typing')
  press('<Esc>')
  expect({ 'Name: Bob', 'Hello world', 'Card: 3782 822463 10005' }, 1, 10, '<Esc>')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 0, 'u')
  press('<C-r>')
  expect({ 'Name: Bob', 'Hello world', 'Card: 3782 822463 10005' }, 1, 0, '<C-r>')
end)

H.case('cc on a field line then typing digits and letters keeps them as typed', function()
  form()
  press('cc')
  for _, ch in ipairs(vim.fn.split('Fax 2015550199', '\\zs')) do
    press(H.literal(ch))
  end
  press('<Esc>')
  expect({ 'Name: Bob', 'Fax 2015550199', 'Card: 3782 822463 10005' }, 1, 13, 'cc and typing')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 0, 'u')
end)

H.case('J joins the field line with the next and the line before with it', function()
  form()
  press('J')
  expect({ 'Name: Bob', TEL .. ' Card: 3782 822463 10005' }, 1, #TEL, 'J on the field line')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 21, 'u')
  api.nvim_win_set_cursor(0, { 1, 0 })
  press('J')
  expect({ 'Name: Bob ' .. TEL, 'Card: 3782 822463 10005' }, 0, 9, 'J onto the field line')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 0, 0, 'u')
  press('<C-r>')
  expect({ 'Name: Bob ' .. TEL, 'Card: 3782 822463 10005' }, 0, 0, '<C-r>')
end)

H.case('p of a yanked field line puts the same text; u and <C-r> take it back and again', function()
  form()
  press('yy')
  press('p')
  expect({ 'Name: Bob', TEL, TEL, 'Card: 3782 822463 10005' }, 2, 0, 'p')
  press('P')
  expect({ 'Name: Bob', TEL, TEL, TEL, 'Card: 3782 822463 10005' }, 2, 0, 'P')
  press('u')
  expect({ 'Name: Bob', TEL, TEL, 'Card: 3782 822463 10005' }, 2, 0, 'u')
  press('u')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, 1, 21, 'u again')
  press('<C-r>')
  expect({ 'Name: Bob', TEL, TEL, 'Card: 3782 822463 10005' }, 1, 21, '<C-r>')
end)

H.case('deleting every line, putting and undoing keep the copy sent to the daemon the buffer', function()
  form()
  local sync = require('maskd.sync')
  local bufnr = api.nvim_get_current_buf()
  -- The buffer keeps one empty line, which on_lines does not count.
  press('ggdG')
  expect({ '' }, 0, 0, 'ggdG')
  H.eq(true, sync.in_sync(bufnr), 'in step after ggdG')
  press('P')
  expect({ 'Name: Bob', TEL, 'Card: 3782 822463 10005', '' }, 0, 0, 'P')
  H.eq(true, sync.in_sync(bufnr), 'in step after P')
  press('u')
  press('u')
  H.eq({ 'Name: Bob', TEL, 'Card: 3782 822463 10005' }, lines(), 'lines after u u')
  H.eq(true, sync.in_sync(bufnr), 'in step after u u')
  press('<C-r>')
  expect({ '' }, 0, 0, '<C-r>')
  H.eq(true, sync.in_sync(bufnr), 'in step after <C-r>')
end)

H.case('u u <C-r> <C-r> after typing into a new line reaches every state', function()
  H.buffer({ 'Name: Bob' })
  press('oUK: <Esc>')
  expect({ 'Name: Bob', 'UK: ' }, 1, 3, 'oUK: <Esc>')
  H.command('MaskdField phone GB')
  H.keys('a')
  H.type('02079460958')
  press('<Esc>')
  local typed = lines()[2]
  H.eq('UK: 020 7946 0958', typed, 'typed')
  press('u')
  H.eq({ 'Name: Bob', 'UK: ' }, lines(), 'u')
  press('u')
  H.eq({ 'Name: Bob' }, lines(), 'u u')
  press('<C-r>')
  H.eq({ 'Name: Bob', 'UK: ' }, lines(), 'u u <C-r>')
  press('<C-r>')
  H.eq({ 'Name: Bob', typed }, lines(), 'u u <C-r> <C-r>')
  press('u')
  press('u')
  H.eq({ 'Name: Bob' }, lines(), 'back to the start')
  press('<C-r>')
  press('<C-r>')
  H.eq({ 'Name: Bob', typed }, lines(), 'forward to the end')
end)

H.run()
