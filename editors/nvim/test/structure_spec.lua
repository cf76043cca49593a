-- Generated editing of whole lines: seeded sequences of Normal-mode commands (dd, p, P, J, gJ, o,
-- O, S, cc, >>, <<, Visual lines, :m, :t, :sort, u, <C-r>, g-, g+, . and moves between lines) run
-- on a form with typed fields and, in a
-- second window, on the same text in a buffer maskd does not know. After every command both hold
-- the same lines and the same cursor: maskd never changes what such a command made, and u and
-- <C-r> reach every state as in plain Neovim.
-- Run: timeout 120 nvim --headless --clean -u test/structure_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api

local COMMANDS = {
  'dd', '2dd', 'dj', 'dk', 'yyp', 'yyP', 'yjP', 'p', 'P', 'ddp', 'ddP', 'ddkP', 'J', 'gJ', 'o<Esc>', 'O<Esc>',
  'S<Esc>', 'cc<Esc>', '>>', '<lt><lt>', 'Vjd', 'Vjy', 'Vj>', 'VjJ', ':m+1<CR>', ':m-2<CR>', ':t.<CR>',
  ':sort<CR>', '.', 'u', 'u', 'u', '<C-r>', '<C-r>', 'g-', 'g+', 'j', 'k', 'gg', 'G',
}
local STEPS = 30

--- Opens a field of `mask` at (row, col) and types `keys` into it, as a person would.
local function typed_field(row, col, mask, keys)
  api.nvim_win_set_cursor(0, { row, col })
  H.command('MaskdField ' .. mask)
  H.keys('a')
  H.type(keys)
  H.keys('<Esc>')
end

--- The form: a phone, a card, and an expiry date and a code on one line, typed into their fields, and
--- lines of prose around them.
local function form()
  local bufnr = H.buffer({ 'Name: Bob', 'Tel: ', 'Card: ', 'Note: call after 5' })
  typed_field(2, 4, 'phone.us', '2015550123')
  typed_field(3, 5, 'card', '378282246310005')
  -- Two fields on one line, a blank apart.
  api.nvim_buf_set_lines(bufnr, 3, 3, false, { 'Exp:  CVC: ' })
  H.settle(bufnr)
  typed_field(4, 4, '[00]/[00]', '1229')
  typed_field(4, 15, '[000]', '123')
  H.eq(
    { 'Name: Bob', 'Tel: +1 (201) 555-0123', 'Card: 3782 822463 10005', 'Exp: 12/29 CVC: 123', 'Note: call after 5' },
    api.nvim_buf_get_lines(bufnr, 0, -1, false),
    'the form'
  )
  return bufnr
end

--- Starts the undo history of the current buffer here, as in a buffer just read.
local function forget_history()
  local levels = vim.bo.undolevels
  vim.bo.undolevels = -1
  vim.cmd('keepjumps normal! 1G0')
  vim.cmd('exe "normal! a \\<BS>\\<Esc>"')
  vim.bo.undolevels = levels
end

local function state(win)
  local bufnr = api.nvim_win_get_buf(win)
  return { lines = api.nvim_buf_get_lines(bufnr, 0, -1, false), cursor = api.nvim_win_get_cursor(win) }
end

--- The form in the current window, and a window beside it with the same text in a buffer maskd
--- does not know, its history starting there too. Returns the form's buffer and both windows.
local function form_and_plain_copy()
  local bufnr = form()
  forget_history()
  H.settle(bufnr)
  local with = api.nvim_get_current_win()
  local text = api.nvim_buf_get_lines(bufnr, 0, -1, false)
  vim.cmd('vnew')
  local without = api.nvim_get_current_win()
  api.nvim_buf_set_lines(0, 0, -1, false, text)
  vim.bo.modified = false
  forget_history()
  api.nvim_win_set_cursor(without, api.nvim_win_get_cursor(with))
  return bufnr, with, without
end

--- Runs `command` in the form's window, then in the plain one, and checks that both hold the same
--- lines and cursor and that the daemon's copy is the buffer (`what` names the step). Returns the
--- fields the daemon has after it.
local function run_in_both(command, bufnr, with, without, what)
  api.nvim_set_current_win(with)
  H.keys(command, { any = true })
  local fields = H.settle(bufnr)
  local sent = require('maskd.sync').in_sync(bufnr)
  api.nvim_set_current_win(without)
  H.keys(command, { any = true })
  local want, got = state(without), state(with)
  H.eq(want.lines, got.lines, 'lines after ' .. what)
  H.eq(want.cursor, got.cursor, 'cursor after ' .. what)
  H.eq(true, sent, 'the copy the daemon has is the buffer, after ' .. what)
  return fields
end

local function run(seed)
  math.randomseed(seed)
  local bufnr, with, without = form_and_plain_copy()
  local done = {}
  for step = 1, STEPS do
    local command = COMMANDS[math.random(#COMMANDS)]
    table.insert(done, command)
    run_in_both(command, bufnr, with, without, ('seed %d, step %d (%s)'):format(seed, step, table.concat(done, ' ')))
  end
  api.nvim_set_current_win(without)
  vim.cmd('bwipeout!')
end

for _, seed in ipairs({ 1, 2, 3, 4, 5, 6, 7, 8 }) do
  H.case(('seed %d: %d line commands keep the text and cursor plain Neovim gives'):format(seed, STEPS), function()
    run(seed)
  end)
end

-- Commands within lines, run with the cursor anywhere: those whose change lies within a field
-- (typing into it, which maskd formats on purpose) are drawn again; every other change, and every
-- undo and redo, must leave what plain Neovim leaves.
local CHAR_COMMANDS = {
  'x', 'X', '~', 'r#', 'D', 'C<Esc>', 'dw', 'de', 'db', 'd2w', 'cw<Esc>', 's<Esc>', 'ix<Esc>', 'a;<Esc>',
  'yw', 'p', 'P', 'g~~', 'gUU', 'guu', 'J', 'u', 'u', '<C-r>', 'g-', 'g+',
}
local UNDOS = { u = true, ['<C-r>'] = true, ['g-'] = true, ['g+'] = true }

--- Where `command`, at the cursor of window `with`, changes the lines: run on a copy in window
--- `scratch`, and diffed as the plugin diffs (common prefix, then common suffix). Returns the
--- change's start and end in the old lines, as {line, column} (0-based), and the text it puts
--- there.
local function change_of(command, with, scratch)
  local lines = api.nvim_buf_get_lines(api.nvim_win_get_buf(with), 0, -1, false)
  api.nvim_set_current_win(scratch)
  api.nvim_buf_set_lines(0, 0, -1, false, lines)
  api.nvim_win_set_cursor(scratch, api.nvim_win_get_cursor(with))
  H.keys(command, { any = true })
  local old, new = table.concat(lines, '\n'), table.concat(api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  local p = 0
  while p < #old and p < #new and old:byte(p + 1) == new:byte(p + 1) do
    p = p + 1
  end
  local q = 0
  while q < #old - p and q < #new - p and old:byte(#old - q) == new:byte(#new - q) do
    q = q + 1
  end
  local function place(offset)
    local line, start = 0, 1
    while true do
      local nl = old:find('\n', start, true)
      if not nl or nl > offset then
        return { line, offset - start + 1 }
      end
      line, start = line + 1, nl + 1
    end
  end
  return place(p), place(#old - q), new:sub(p + 1, #new - q), old ~= new
end

--- Whether a change from `a` to `b` putting `text` lies within one of `fields` (their boundaries
--- included) on one line: typing into it.
local function types_into(fields, a, b, text)
  if a[1] ~= b[1] or text:find('\n', 1, true) then
    return false
  end
  for _, f in ipairs(fields) do
    local r = f.range
    if r.start.line == a[1] and r['end'].line == a[1] and r.start.character <= a[2] and b[2] <= r['end'].character then
      return true
    end
  end
  return false
end

local function run_chars(seed)
  math.randomseed(seed)
  local bufnr, with, without = form_and_plain_copy()
  local fields = H.settle(bufnr)
  vim.cmd('new')
  local scratch = api.nvim_get_current_win()
  vim.bo.buftype = 'nofile'
  local done = {}
  local step = 0
  while step < STEPS do
    local command = CHAR_COMMANDS[math.random(#CHAR_COMMANDS)]
    local lines = api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local row = math.random(#lines)
    local cursor = { row, math.random(0, math.max(#lines[row] - 1, 0)) }
    api.nvim_win_set_cursor(with, cursor)
    api.nvim_win_set_cursor(without, cursor)
    local typing = false
    if not UNDOS[command] then
      local a, b, put, changed = change_of(command, with, scratch)
      typing = changed and types_into(fields, a, b, put)
    end
    if not typing then
      step = step + 1
      table.insert(done, ('%s@%d:%d'):format(command, cursor[1], cursor[2]))
      local what = ('seed %d, step %d (%s)'):format(seed, step, table.concat(done, ' '))
      fields = run_in_both(command, bufnr, with, without, what)
    end
  end
  api.nvim_set_current_win(scratch)
  vim.cmd('bwipeout!')
  api.nvim_set_current_win(without)
  vim.cmd('bwipeout!')
end

for _, seed in ipairs({ 1, 2, 3, 4, 5, 6, 7, 8 }) do
  H.case(('seed %d: %d commands within lines keep the text and cursor plain Neovim gives'):format(seed, STEPS), function()
    run_chars(seed)
  end)
end

H.run()
