-- Nothing the person typed is lost: undo after typing in a field, undo of an open, a field
-- the cursor stands next to, a refused open, one field per line over a range, and the
-- daemon dying under the fields (restarted, every field opened again, what was typed
-- meanwhile formatted). Run: timeout 120 nvim --headless --clean -u test/safety_spec.lua
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api
local maskd = H.maskd
local client = require('maskd.client')
local fields = require('maskd.fields')

local function lines()
  return api.nvim_buf_get_lines(0, 0, -1, false)
end

--- Runs `fn` and returns the messages vim.notify was given meanwhile.
local function messages(fn)
  local got = {}
  local notify = vim.notify
  vim.notify = function(msg, ...)
    table.insert(got, msg)
  end
  local ok, err = pcall(fn)
  vim.notify = notify
  if not ok then
    error(err, 0)
  end
  return got
end

--- The message lines `fn` gives, as they reach the person: vim.notify and :echo.
local function said(fn)
  vim.cmd('messages clear')
  local got = messages(fn)
  for _, l in ipairs(vim.split(vim.fn.execute('messages'), '\n', { trimempty = true })) do
    table.insert(got, l)
  end
  return got
end

--- The FieldState :MaskdInfo finds at the cursor, or nil.
local function info_state()
  local state
  H.command(function()
    maskd.info(function(_, s)
      state = s
    end)
  end)
  return state
end

--- Stops the daemon and leaves a fresh buffer; returns the command to start it again with.
local function stop_daemon()
  client.stop()
  H.wait(function()
    return client.get() == nil
  end, 'the daemon to stop')
  vim.cmd('enew!')
  return maskd.config.cmd
end

H.case('u after typing into a field after a label gives back the line as it was', function()
  H.buffer({ 'Tel: ' })
  H.keys('$')
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('555')
  H.keys('<Esc>')
  H.eq({ 'Tel: +1 (555' }, lines(), 'typed')
  H.keys('u')
  H.expect('Tel: ', 4)
  H.keys('a')
  H.step('5', 'Tel: +1 (5', 10)
  H.keys('<Esc>')
end)

H.case('u right after an open closes the field and gives back the text', function()
  H.buffer({ 'call 5551234567 now' })
  api.nvim_win_set_cursor(0, { 1, 7 })
  H.command('MaskdField phone.us')
  H.eq({ 'call +1 (555) 123-4567 now' }, lines(), 'opened')
  H.keys('u', { format = false })
  H.eq({ 'call 5551234567 now' }, lines(), 'after u')
  H.sleep(100)
  H.eq({ 'call 5551234567 now' }, lines(), 'nothing formats it again')
  H.eq({}, fields.list(api.nvim_get_current_buf()), 'recorded fields')
  local bufnr = api.nvim_get_current_buf()
  local got
  H.command(function()
    maskd.fields_qf(function(_, list)
      got = list
    end)
  end)
  vim.cmd('cclose')
  H.eq({}, got, "the daemon's fields")
  -- Typing there is plain typing now.
  api.nvim_win_set_cursor(0, { 1, 14 })
  H.keys('a8<Esc>', { format = false })
  H.eq({ 'call 55512345678 now' }, lines(), 'typed')
  H.eq(bufnr, api.nvim_get_current_buf(), 'buffer')
end)

H.case('the field right after the cursor is found (empty, after a label)', function()
  H.buffer({ 'Phone: ' })
  H.keys('$')
  H.command('MaskdField phone.us')
  local state = info_state()
  H.eq('table', type(state), ':MaskdInfo finds the field')
  H.eq('maskd (empty) [incomplete, next digit]', maskd.status(), 'status()')
  H.command('MaskdSetMask card')
  H.eq('[0000] [0000] [0000] [0000] [999]', fields.list(api.nvim_get_current_buf())[1].mask, 'mask after :MaskdSetMask card')
  H.command('MaskdClose')
  H.eq({}, fields.list(api.nvim_get_current_buf()), 'fields after :MaskdClose')
end)

H.case('an empty field opened from Normal mode puts the cursor in it, in Insert mode', function()
  maskd.config.insert_on_open = true
  H.buffer({ 'Phone: ' })
  H.keys('$')
  H.keys(':MaskdField phone.us<CR>')
  H.wait(function()
    return api.nvim_get_mode().mode == 'i'
  end, 'Insert mode')
  maskd.config.insert_on_open = false
  H.expect('Phone: ', 7, { mode = 'i' })
  H.step('5', 'Phone: +1 (5', 12)
  H.keys('<Esc>')
end)

H.case("a bare word that is no preset: unknown preset, and the presets listed", function()
  H.buffer({ '5551234567' })
  local got = messages(function()
    H.command('MaskdField phone.uk')
  end)
  H.eq(1, #got, 'messages: ' .. vim.inspect(got))
  H.eq(true, got[1]:find("^maskd: unknown preset 'phone.uk' %(presets: .*phone.us") ~= nil, 'message: ' .. got[1])
  H.eq({ '5551234567' }, lines(), 'text')
end)

H.case('an open that would drop the label is refused with its reason; ! forces it', function()
  H.buffer({ 'Phone: 5551234567' })
  api.nvim_win_set_cursor(0, { 1, 0 })
  local err
  H.command(function()
    maskd.open_field('phone.us', { silent = true }, function(e)
      err = e
    end)
  end)
  if not err then
    error('the daemon opened a field over a label (it should refuse with -32803)')
  end
  H.eq(-32803, err.code, 'error code')
  H.eq({ 'Phone: 5551234567' }, lines(), 'text')
  local got = messages(function()
    H.command('MaskdField phone.us')
  end)
  H.eq(1, #got, 'messages: ' .. vim.inspect(got))
  H.eq(true, got[1]:find("^maskd: .*Phone:.*phone.us") ~= nil, 'the message names what would be lost: ' .. got[1])
  H.command('MaskdField! phone.us')
  H.eq(1, #fields.list(api.nvim_get_current_buf()), 'forced open')
  H.keys('u', { format = false })
  H.eq({ 'Phone: 5551234567' }, lines(), 'u gives the label back')
  H.sleep(100)
  H.eq({ 'Phone: 5551234567' }, lines(), 'and it stays')
end)

--- The pid of the running daemon.
local function daemon_pid()
  local c = client.get()
  if c and c.rpc and c.rpc.pid then
    return c.rpc.pid
  end
  -- 0.10 and later keep the pid out of reach: the daemon is Neovim's child named maskd.
  for _, pid in ipairs(c and vim.api.nvim_get_proc_children(vim.fn.getpid()) or {}) do
    local proc = vim.api.nvim_get_proc(pid)
    if proc and tostring(proc.name):match('maskd') then
      return pid
    end
  end
end

--- Kills the daemon as an out-of-memory kill would.
local function kill_daemon()
  local pid = daemon_pid()
  assert(pid, 'no daemon pid')
  vim.loop.kill(pid, 'sigkill')
  return pid
end

local function wait_reopened(bufnr, count)
  H.wait(function()
    return maskd._stats(bufnr).reopened >= count
  end, 'the fields to open again')
end

H.case('the daemon killed mid-typing: restarted, fields back, what was typed formatted', function()
  local bufnr = H.buffer({ 'card 4111111111111111', 'Tel: ' })
  api.nvim_win_set_cursor(0, { 1, 6 })
  H.command('MaskdField card')
  H.keys('2G$')
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('555')
  local got = said(function()
    local pid = kill_daemon()
    -- Typed on at once, while the daemon is gone or starting again.
    api.nvim_input('1234567')
    wait_reopened(bufnr, 1)
    H.wait(function()
      return lines()[2] == 'Tel: +1 (555) 123-4567'
    end, 'the line to be formatted, now ' .. vim.inspect(lines()))
    assert(daemon_pid() ~= pid, 'a new daemon')
  end)
  local daemons = vim.tbl_filter(function(child)
    local proc = vim.api.nvim_get_proc(child)
    return proc ~= nil and tostring(proc.name):match('maskd') ~= nil
  end, vim.api.nvim_get_proc_children(vim.fn.getpid()))
  H.eq(1, #daemons, 'one daemon runs')
  H.expect('Tel: +1 (555) 123-4567', 22, { row = 1, mode = 'i' })
  H.eq('card 4111 1111 1111 1111', lines()[1], 'the other field')
  H.eq(1, #got, 'exactly one message: ' .. vim.inspect(got))
  H.eq(true, got[1]:find('^maskd: the daemon stopped %(signal 9%)') ~= nil, 'the message: ' .. got[1])
  -- Both fields are fields again: typing formats, and the card is found.
  H.keys('<BS>')
  H.expect('Tel: +1 (555) 123-456', 21, { row = 1 })
  H.keys('<Esc>')
  api.nvim_win_set_cursor(0, { 1, 8 })
  local state = info_state()
  H.eq('visa', state and state.brand, 'the card field after the restart')
end)

H.case("the daemon killed, keys typed while the reopen's answer is on its way: formatted all the same", function()
  local bufnr = H.buffer({ 'Tel: ' })
  H.keys('$')
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('555')
  client._forget_restarts()
  local reopen = client.on_restart
  local typed = false
  local function type_at_end(digits)
    local line = lines()[1]
    api.nvim_buf_set_text(bufnr, 0, #line, 0, #line, { digits })
    api.nvim_win_set_cursor(0, { 1, #line + #digits })
  end
  -- A digit typed while the daemon was away (the reopen formats it), the others right after
  -- the reopen's request goes out, in the same turn of the event loop: its answer, read in a
  -- later one, is then for a version the buffer has left.
  client.on_restart = function(bufnrs)
    client.on_restart = reopen
    type_at_end('1')
    reopen(bufnrs)
    type_at_end('234567')
    typed = maskd._stats(bufnr).reopened == 0
  end
  local got = said(function()
    kill_daemon()
    wait_reopened(bufnr, 1)
    H.wait(function()
      return lines()[1] == 'Tel: +1 (555) 123-4567' and #fields.list(bufnr) == 1
    end, 'the line to be formatted, now ' .. vim.inspect(lines()))
  end)
  client.on_restart = reopen
  H.eq(true, typed, "the digits were typed before the reopen's answer came")
  H.eq(1, maskd._stats(bufnr).reformats, "the reopen's answer came stale and its field was formatted afresh")
  H.expect('Tel: +1 (555) 123-4567', 22, { mode = 'i' })
  H.eq(1, #got, 'one message: ' .. vim.inspect(got))
  -- Still a field: typing formats.
  H.keys('<BS>')
  H.expect('Tel: +1 (555) 123-456', 21)
  H.keys('<Esc>')
end)

H.case('a daemon that dies at start-up: one message, no restart loop', function()
  local saved = stop_daemon()
  api.nvim_buf_set_lines(0, 0, -1, false, { '' })
  H.setup({ cmd = { 'sh', '-c', 'exit 3' } })
  local got = said(function()
    vim.cmd('MaskdField phone.us')
    H.sleep(400)
  end)
  H.eq(1, #got, 'messages: ' .. vim.inspect(got))
  H.eq(true, got[1]:find('^maskd: the daemon exited at start%-up') ~= nil, 'message: ' .. got[1])
  H.eq(nil, client.get(), 'no daemon running')
  H.setup({ cmd = saved })
end)

H.case('a daemon that keeps dying: restarted 3 times, then one message and plain typing', function()
  local bufnr = H.buffer({ '' })
  H.command('MaskdField phone.us')
  H.keys('i')
  H.type('5')
  -- The restarts of the cases before count in the same minute.
  client._forget_restarts()
  local got = said(function()
    for n = 1, 3 do
      kill_daemon()
      wait_reopened(bufnr, n)
      H.wait(client.ready, 'the daemon ' .. n)
    end
    kill_daemon()
    H.wait(function()
      return client.get() == nil
    end, 'the daemon to stay down')
    H.sleep(200)
  end)
  H.eq(4, #got, 'messages: ' .. vim.inspect(got))
  H.eq(true, got[4]:find('fields are off until you open one again') ~= nil, 'last message: ' .. got[4])
  H.eq(nil, client.get(), 'no daemon')
  H.keys('5', { format = false })
  H.expect('+1 (55', 6, { mode = 'i' })
  H.keys('<Esc>')
  -- Opening a field again starts one; the formatted text is taken whole.
  H.keys('0')
  H.command('MaskdField phone.us')
  H.eq({ '+1 (55' }, lines(), 'opened over the whole text')
  H.keys('A')
  H.step('5', '+1 (555', 7)
  H.keys('<Esc>')
end)

H.case(":'<,'>MaskdField over 1,000 lines: a field on each, typing in line 500 formatted", function()
  local text = {}
  for i = 1, 1000 do
    text[i] = ('%03d5551234'):format(i % 1000)
  end
  local bufnr = H.buffer(text)
  H.keys('ggVG<Esc>')
  local started = vim.loop.hrtime()
  H.command(":'<,'>MaskdField phone.us")
  local ms = (vim.loop.hrtime() - started) / 1e6
  H.out(('      1,000 fields opened in %.0f ms'):format(ms))
  H.eq(1000, #fields.list(bufnr), 'fields')
  H.eq('+1 (001) 555-1234', lines()[1], 'line 1')
  H.eq('+1 (500) 555-1234', lines()[500], 'line 500')
  H.eq('+1 (000) 555-1234', lines()[1000], 'line 1000')
  api.nvim_win_set_cursor(0, { 500, 0 })
  H.keys('$')
  H.keys('a')
  H.step('<BS>', '+1 (500) 555-123', 16, { row = 499 })
  H.step('9', '+1 (500) 555-1239', 17, { row = 499 })
  H.keys('<Esc>')
end)

H.case('no diagnostics from the daemon in plugin buffers, so nothing hides the placeholder', function()
  local bufnr = H.buffer({ '' })
  H.command('MaskdField phone.us')
  H.keys('i')
  H.type('555')
  H.keys('<Esc>')
  -- Past the daemon's quiet delay (250 ms), when pushed diagnostics would come.
  H.sleep(600)
  H.eq({}, vim.diagnostic.get(bufnr), 'diagnostics')
  local marks = api.nvim_buf_get_extmarks(bufnr, fields.ns, 0, -1, { details = true })
  H.eq(1, #marks, 'placeholder extmarks')
  H.eq(') ___-____', marks[1][4].virt_text[1][1], 'the placeholder')
end)

H.case('MaskdPlaceholder keeps its colour across :colorscheme', function()
  vim.cmd('colorscheme default')
  H.eq(vim.fn.hlID('Comment'), vim.fn.synIDtrans(vim.fn.hlID('MaskdPlaceholder')), 'MaskdPlaceholder after :colorscheme')
end)

H.case('a missing daemon: not started by setup(), one line once naming the option', function()
  local saved = stop_daemon()
  local got = said(function()
    H.setup({ cmd = { '/nonexistent/maskd' } })
    H.sleep(50)
  end)
  H.eq({}, got, 'messages from setup()')
  got = said(function()
    vim.cmd('MaskdField phone.us')
    vim.cmd('MaskdField phone.us')
    H.sleep(50)
  end)
  H.eq({ "maskd: cannot run '/nonexistent/maskd': set cmd in require('maskd').setup{} to the maskd binary" }, got, 'messages')
  H.setup({ cmd = saved })
end)

H.case(':MaskdInfo on a card fits one line, however narrow the screen', function()
  H.buffer({ '4111111111111111' })
  H.command('MaskdField card')
  local columns = vim.o.columns
  vim.o.columns = 50
  vim.cmd('messages clear')
  H.command('MaskdInfo')
  local shown = vim.split(vim.fn.execute('messages'), '\n', { trimempty = true })
  vim.o.columns = columns
  H.eq(1, #shown, 'lines: ' .. vim.inspect(shown))
  H.eq(true, vim.fn.strdisplaywidth(shown[1]) < 50, 'width of ' .. shown[1])
  H.eq(true, shown[1]:find('^maskd visa 4111111111111111 %[valid%]') ~= nil, 'text: ' .. shown[1])
end)

H.case('while the daemon is away the fields follow the text around them', function()
  local bufnr = H.buffer({ 'Tel: ', 'x' })
  H.keys('$')
  H.command('MaskdField phone.us')
  H.keys('a')
  H.type('555')
  H.keys('<Esc>')
  client._forget_restarts()
  said(function()
    kill_daemon()
    -- While it is away: a line above, text before the field on its line, digits after it.
    api.nvim_input('ggOtop<Esc>j0iMy <Esc>A1234567<Esc>')
    wait_reopened(bufnr, maskd._stats(bufnr).reopened + 1)
    H.wait(function()
      return lines()[2] == 'My Tel: +1 (555) 123-4567'
    end, 'the field in form, now ' .. vim.inspect(lines()))
  end)
  H.eq({ 'top', 'My Tel: +1 (555) 123-4567', 'x' }, lines(), 'text')
  local r = fields.list(bufnr)[1].range
  H.eq({ 1, 8, 25 }, { r.start.line, r.start.character, r['end'].character }, 'range')
end)

H.case('a range over lines with one line that does not fit: the others open, one message', function()
  H.buffer({ '5551234567', 'Name: Ann', '4155550000' })
  local got = messages(function()
    H.command('1,3MaskdField phone.us')
  end)
  H.eq({ '+1 (555) 123-4567', 'Name: Ann', '+1 (415) 555-0000' }, lines(), 'text')
  H.eq(1, #got, 'messages: ' .. vim.inspect(got))
  H.eq(true, got[1]:find("^maskd: 2 of 3 fields opened; line 2: 'Name: Ann' does not fit phone.us") ~= nil, 'message: ' .. got[1])
end)

H.run()
