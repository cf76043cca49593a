-- Typing into fields key by key in Insert mode, asserting the text and the cursor after
-- every keystroke. Run: timeout 120 nvim --headless --clean -u test/typing_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local PHONE = '+1 ([000]) [000]-[0000]'
local CARD = '[0000] [0000] [0000] [0000] [999]'

local PHONE_STATES = {
  { '+1 (5', 5 },
  { '+1 (55', 6 },
  { '+1 (555', 7 },
  { '+1 (555) 1', 10 },
  { '+1 (555) 12', 11 },
  { '+1 (555) 123', 12 },
  { '+1 (555) 123-4', 14 },
  { '+1 (555) 123-45', 15 },
  { '+1 (555) 123-456', 16 },
  { '+1 (555) 123-4567', 17 },
}

--- An empty line with an empty field on it, in Insert mode.
local function empty_field(mask)
  H.buffer({ '' })
  H.command('MaskdField ' .. mask)
  H.keys('i')
  H.expect('', 0, { mode = 'i' })
end

--- A phone field holding 5551234567, the cursor at its end, in Insert mode.
local function full_phone()
  empty_field(PHONE)
  H.type('5551234567')
  H.expect('+1 (555) 123-4567', 17)
end

H.case('US phone typed from empty', function()
  empty_field(PHONE)
  H.steps('5551234567', PHONE_STATES)
  H.step('<Esc>', '+1 (555) 123-4567', 16, { mode = 'n' })
  H.eq('maskd 5551234567 [valid]', H.maskd.status(), 'status()')
end)

H.case('lazy trailing literals and the placeholder', function()
  empty_field(PHONE)
  H.type('555')
  H.expect('+1 (555', 7)
  local field = H.maskd.field()
  H.eq(') ___-____', field and field.placeholder, 'placeholder')
  H.eq('maskd 555 [incomplete, next digit]', H.maskd.status(), 'status()')
  local marks = vim.api.nvim_buf_get_extmarks(0, require('maskd.fields').ns, 0, -1, { details = true })
  H.eq(1, #marks, 'placeholder extmarks')
  H.eq(7, marks[1][3], 'placeholder column')
  H.eq(') ___-____', marks[1][4].virt_text[1][1], 'placeholder text')
  -- A typed literal shows; backspace over it removes it again.
  H.step(')', '+1 (555)', 8)
  H.step('<BS>', '+1 (555', 7)
end)

H.case('card typed from empty', function()
  empty_field(CARD)
  local states = {}
  local digits = '4111111111111111123'
  local text = ''
  for i = 1, #digits do
    if i > 1 and (i - 1) % 4 == 0 then
      text = text .. ' '
    end
    text = text .. digits:sub(i, i)
    table.insert(states, { text, #text })
  end
  H.steps(digits, states)
  -- The mask is full: a twentieth digit changes nothing.
  H.step('9', '4111 1111 1111 1111 123', 23)
end)

H.case('backspace right after a separator deletes the digit before it', function()
  full_phone()
  H.keys('<Left><Left><Left><Left>')
  H.expect('+1 (555) 123-4567', 13)
  H.step('<BS>', '+1 (555) 124-567', 11)
  H.keys('<Left><Left>')
  H.expect('+1 (555) 124-567', 9)
  H.step('<BS>', '+1 (551) 245-67', 6)
end)

H.case('delete a digit in the middle and type the right one (the caret stays)', function()
  full_phone()
  H.keys('<Left><Left><Left>')
  H.expect('+1 (555) 123-4567', 14)
  -- The caret stays after the third entered digit, not after the dash that follows it.
  H.step('<BS>', '+1 (555) 123-567', 12)
  H.step('9', '+1 (555) 123-9567', 14)
  H.step('8', '+1 (555) 123-9856', 15)
end)

H.case('the caret stays among equal digits (Alipay with 4111 1111 ...)', function()
  empty_field(CARD)
  H.type('4111111111111111')
  H.expect('4111 1111 1111 1111', 19)
  H.keys('<Home><Right><Right><Right><Right><Right><Right><Right>')
  H.expect('4111 1111 1111 1111', 7)
  -- Neovim's own sync would report the deletion at the end of the run of 1s, and the
  -- daemon would put the caret there (8); the plugin sends the edit Vim made.
  H.step('<BS>', '4111 1111 1111 111', 6)
  H.step('2', '4111 1211 1111 1111', 7)
  H.step('<Del>', '4111 1211 1111 111', 7)
  H.step('3', '4111 1231 1111 1111', 8)
end)

H.case('Normal mode: x on a digit, the cursor stays on the one that moved in', function()
  full_phone()
  H.keys('<Esc>')
  vim.api.nvim_win_set_cursor(0, { 1, 10 })
  H.step('x', '+1 (555) 134-567', 10, { mode = 'n' })
  H.step('x', '+1 (555) 145-67', 10, { mode = 'n' })
end)

H.case('typing ahead of the daemon: keys typed together go out together', function()
  empty_field(PHONE)
  local stats = H.maskd._stats(vim.api.nvim_get_current_buf())
  local applied = stats.applied
  -- Neovim handles the ten keys before it reads any answer: they reach the daemon as one
  -- change, formatted at once.
  H.step('5551234567', '+1 (555) 123-4567', 17)
  H.eq(applied + 1, stats.applied, 'didFormat applied')
end)

H.case('a didFormat made stale by the next keystroke is dropped', function()
  empty_field(PHONE)
  local stats = H.maskd._stats(vim.api.nvim_get_current_buf())
  -- Each flush sends the change so far; the next key comes before the daemon's answer.
  local flush = '<Cmd>lua require("maskd.sync").flush(vim.api.nvim_get_current_buf())<CR>'
  H.keys(('5' .. flush):rep(3) .. '1')
  H.wait(function()
    return vim.api.nvim_buf_get_lines(0, 0, 1, false)[1] == '+1 (555) 1'
  end, 'the field to settle')
  H.expect('+1 (555) 1', 10)
  H.eq(true, stats.stale > 0, 'some didFormat dropped as stale (' .. vim.inspect(stats) .. ')')
  H.step('2', '+1 (555) 12', 11)
end)

H.case('paste into an empty field', function()
  empty_field(PHONE)
  H.paste('+1 (555) 123-4567 ext')
  H.expect('+1 (555) 123-4567', 17)
end)

H.case('a rejected letter changes nothing', function()
  empty_field(PHONE)
  H.type('555')
  H.step('a', '+1 (555', 7)
  H.step('x', '+1 (555', 7)
  H.step('1', '+1 (555) 1', 10)
  H.step('Z', '+1 (555) 1', 10)
end)

H.case('u undoes a keystroke and its formatting together (Normal mode)', function()
  empty_field(PHONE)
  H.type('555')
  H.step('<Esc>', '+1 (555', 6)
  -- The didFormat for this keystroke is handled after <Esc>, in Normal mode.
  H.step('a1<Esc>', '+1 (555) 1', 9, { mode = 'n' })
  H.step('u', '+1 (555', 6)
  -- A redo's cursor is where Neovim puts it (the start of what it brought back): the plugin
  -- moves nothing after an undo or a redo.
  H.step('<C-r>', '+1 (555) 1', 7)
end)

H.case('u undoes a keystroke and its formatting together (Insert mode)', function()
  empty_field(PHONE)
  H.type('555')
  H.keys('<C-g>u')
  H.step('1', '+1 (555) 1', 10, { mode = 'i' })
  H.step('<Esc>', '+1 (555) 1', 9)
  H.step('u', '+1 (555', 6)
  H.step('u', '', 0)
end)

H.case('a mask change mid-input', function()
  empty_field(PHONE)
  H.type('5551')
  H.expect('+1 (555) 1', 10)
  H.command(function()
    vim.api.nvim_input('<Cmd>MaskdSetMask ' .. CARD .. '<CR>')
  end)
  H.expect('5551', 4, { mode = 'i' })
  H.step('2', '5551 2', 6)
  H.step('3', '5551 23', 7)
  H.command('MaskdSetMask ' .. PHONE)
  H.expect('+1 (555) 123', 12)
  H.step('4', '+1 (555) 123-4', 14)
end)

H.case('a multibyte line: 名前: before the field, 😀 after it', function()
  H.buffer({ '名前: 😀' })
  -- On the blank after the colon, the field opens right after it.
  vim.api.nvim_win_set_cursor(0, { 1, 7 })
  H.command('MaskdField ' .. PHONE)
  H.eq({ '名前: 😀' }, vim.api.nvim_buf_get_lines(0, 0, -1, false), 'buffer after opening')
  vim.api.nvim_win_set_cursor(0, { 1, 8 })
  H.keys('i')
  local states = {}
  for i, s in ipairs(PHONE_STATES) do
    states[i] = { '名前: ' .. s[1] .. '😀', 4 + s[2], byte = 8 + s[2] }
  end
  H.steps('5551234567', states)
  H.keys('<Left><Left><Left>')
  H.expect('名前: +1 (555) 123-4567😀', 18, { byte = 22 })
  H.step('<BS>', '名前: +1 (555) 123-567😀', 16, { byte = 20 })
  H.step('9', '名前: +1 (555) 123-9567😀', 18, { byte = 22 })
  H.keys('<End>')
  H.expect('名前: +1 (555) 123-9567😀', 23, { byte = 29 })
  -- Typing after the emoji is outside the field: nothing formats it.
  H.keys('x', { format = false })
  H.expect('名前: +1 (555) 123-9567😀x', 24, { byte = 30 })
end)

H.case('emoji typed in Insert mode, a skin tone included', function()
  empty_field('[***]')
  H.step('😀', '😀', 2)
  H.step('a', '😀a', 3)
  -- Vim inserts 👍 and its skin tone as two changes, even from one input; they reach the
  -- daemon together, as one cluster in one slot.
  H.step('👍🏽', '😀a👍🏽', 7)
  H.keys('<Esc>')
end)

H.run()
