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

--- The form: a phone and a card typed into their fields, and lines of prose around them.
local function form()
  local bufnr = H.buffer({ 'Name: Bob', 'Tel: ', 'Card: ', 'Note: call after 5' })
  api.nvim_win_set_cursor(0, { 2, 4 })
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('2015550123')
  H.keys('<Esc>')
  api.nvim_win_set_cursor(0, { 3, 5 })
  H.command('MaskdField card')
  H.keys('a')
  H.type('378282246310005')
  H.keys('<Esc>')
  H.eq({ 'Name: Bob', 'Tel: +1 (201) 555-0123', 'Card: 3782 822463 10005', 'Note: call after 5' },
    api.nvim_buf_get_lines(bufnr, 0, -1, false), 'the form')
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

local function run(seed)
  math.randomseed(seed)
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
  local done = {}
  for step = 1, STEPS do
    local command = COMMANDS[math.random(#COMMANDS)]
    table.insert(done, command)
    api.nvim_set_current_win(with)
    H.keys(command, { any = true })
    H.settle(bufnr)
    local sent = require('maskd.sync').in_sync(bufnr)
    api.nvim_set_current_win(without)
    H.keys(command, { any = true })
    local what = ('seed %d, step %d (%s)'):format(seed, step, table.concat(done, ' '))
    local want, got = state(without), state(with)
    H.eq(want.lines, got.lines, 'lines after ' .. what)
    H.eq(want.cursor, got.cursor, 'cursor after ' .. what)
    H.eq(true, sent, 'the copy the daemon has is the buffer, after ' .. what)
  end
  api.nvim_set_current_win(without)
  vim.cmd('bwipeout!')
end

for _, seed in ipairs({ 1, 2, 3, 4, 5, 6, 7, 8 }) do
  H.case(('seed %d: %d line commands keep the text and cursor plain Neovim gives'):format(seed, STEPS), function()
    run(seed)
  end)
end

H.run()
