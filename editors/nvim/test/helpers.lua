-- Test harness for `nvim --headless --clean -u test/<name>_spec.lua`.
--
-- Typed keys are only processed when Neovim returns to its main loop, so each test runs as
-- a coroutine that yields to the loop (resumed by vim.defer_fn) whenever it waits. Every
-- keystroke goes through nvim_input followed by a <Cmd> marker; the harness waits for the
-- marker and then, if the keystroke changed the buffer, for the daemon's didFormat.
-- Errors end Neovim with `cquit 1`; an uncaught error in a -u script would hang it.
local H = {}

local api = vim.api
local uv = vim.loop

H.test_dir = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
H.plugin_dir = vim.fn.fnamemodify(H.test_dir, ':h')
H.repo_root = vim.fn.fnamemodify(H.plugin_dir, ':h:h')

vim.o.showmode = false
vim.o.swapfile = false
vim.o.more = false
vim.o.shortmess = vim.o.shortmess .. 'F'
vim.opt.runtimepath:prepend(H.plugin_dir)
vim.cmd('runtime! plugin/maskd.lua')

local maskd = require('maskd')
local fields = require('maskd.fields')
local edits = require('maskd.edits')
H.maskd = maskd

--- How long one wait may take before the test fails, in milliseconds.
H.timeout = tonumber(os.getenv('MASKD_TEST_TIMEOUT') or '') or 10000

--- Prints a line of test output on stdout (headless Neovim writes its messages to stderr).
function H.out(...)
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
  io.stdout:flush()
end

local function resume(co)
  local ok, err = coroutine.resume(co)
  if not ok then
    H.out('harness error: ' .. tostring(err))
    vim.cmd('cquit 1')
  end
end

--- Yields to the main loop for `ms` milliseconds.
function H.sleep(ms)
  local co = coroutine.running()
  vim.defer_fn(function()
    resume(co)
  end, ms)
  coroutine.yield()
end

--- Waits until `cond()` is true, failing with `what` after H.timeout.
function H.wait(cond, what, timeout)
  local deadline = uv.now() + (timeout or H.timeout)
  while not cond() do
    if uv.now() > deadline then
      error('timed out waiting for ' .. what, 2)
    end
    H.sleep(2)
  end
end

-- Starting the daemon ------------------------------------------------------------------

--- The daemon's command: $MASKD (a path), else maskd from the repository's debug build.
function H.cmd()
  local path = os.getenv('MASKD')
  if not path or path == '' then
    path = H.repo_root .. '/.build/debug/maskd'
  end
  return { path }
end

function H.setup(opts)
  -- The tests type their own Insert-mode keys after opening a field.
  maskd.setup(vim.tbl_extend('force', { cmd = H.cmd(), insert_on_open = false }, opts or {}))
end

-- Buffers and keys ---------------------------------------------------------------------

local buffers = 0

--- A fresh buffer with `lines`, attached to the daemon, shown in the only window.
function H.buffer(lines)
  vim.cmd('silent! only')
  if api.nvim_get_mode().mode ~= 'n' then
    H.keys('<Esc>')
  end
  vim.cmd('enew!')
  buffers = buffers + 1
  local bufnr = api.nvim_get_current_buf()
  api.nvim_buf_set_name(bufnr, ('%s/maskd-nvim-test-%d-%d.txt'):format(vim.fn.tempname(), uv.os_getpid(), buffers))
  api.nvim_buf_set_lines(bufnr, 0, -1, false, lines or { '' })
  assert(maskd.attach(bufnr), 'could not attach the buffer to maskd')
  H.wait(function()
    return require('maskd.client').ready()
  end, 'maskd to initialize')
  return bufnr
end

local function person_formats(bufnr)
  local s = maskd._stats(bufnr)
  return s.applied + s.stale + s.undo
end

local mark = 0

--- Feeds `keys` (nvim_input notation) as typed, waits until Neovim has processed them and,
--- when they changed the buffer, until the daemon's didFormat for the change was handled.
--- With `opts.format == false` it checks instead that no didFormat came; with `opts.any`,
--- it waits for neither.
--- Returns what the daemon reported rejected and cut (`rejected`, `overflow`).
function H.keys(keys, opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local before = person_formats(bufnr)
  local b = fields.buf(bufnr)
  b.last = nil
  mark = mark + 1
  local m = mark
  api.nvim_input(keys .. '<Cmd>lua _G.__maskd_test_mark = ' .. m .. '<CR>')
  H.wait(function()
    return _G.__maskd_test_mark == m
  end, 'Neovim to process ' .. keys)
  if opts.any then
    return {}
  end
  if api.nvim_buf_is_valid(bufnr) and api.nvim_buf_get_changedtick(bufnr) ~= tick then
    if opts.format == false then
      H.sleep(150)
      -- The counters start over when the daemon stops (the buffer is forgotten): only a
      -- count that grew means a didFormat came.
      if person_formats(bufnr) > before then
        error('a didFormat came after ' .. keys .. ' though none was expected', 2)
      end
    else
      H.wait(function()
        return person_formats(bufnr) > before
      end, 'the didFormat after ' .. keys)
    end
  end
  local last = b.last or {}
  return { rejected = last.rejected, overflow = last.overflow }
end

--- Escapes `text` for nvim_input, so that each character is typed as itself.
function H.literal(text)
  return (text:gsub('<', '<lt>'))
end

--- Types the characters of `text` one keystroke at a time.
function H.type(text)
  for _, ch in ipairs(vim.fn.split(text, '\\zs')) do
    H.keys(H.literal(ch))
  end
end

--- Pastes `text` as the terminal would (nvim_paste) and waits for the didFormat.
function H.paste(text)
  return H.change(function()
    api.nvim_paste(text, false, -1)
  end, 'pasting ' .. text)
end

--- Runs `fn`, a change made as the person would, and when it changed the buffer waits for
--- the daemon's didFormat. Returns what the daemon reported rejected and cut.
function H.change(fn, what)
  local bufnr = api.nvim_get_current_buf()
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local before = person_formats(bufnr)
  local b = fields.buf(bufnr)
  b.last = nil
  fn()
  if api.nvim_buf_get_changedtick(bufnr) ~= tick then
    H.wait(function()
      return person_formats(bufnr) > before
    end, 'the didFormat after ' .. (what or 'a change'))
  end
  local last = b.last or {}
  return { rejected = last.rejected, overflow = last.overflow }
end

--- Runs an Ex command (or a function) that sends a maskd request and waits for its reply.
function H.command(cmd)
  local bufnr = api.nvim_get_current_buf()
  local before = maskd._stats(bufnr).replies
  if type(cmd) == 'function' then
    cmd()
  else
    vim.cmd(cmd)
  end
  H.wait(function()
    return maskd._stats(bufnr).replies > before
  end, 'the reply to ' .. (type(cmd) == 'string' and cmd or 'a request'))
end

--- Waits until the daemon has handled every change sent so far for `bufnr` (default: the current
--- buffer): its answer to a request comes after the didFormats of the changes before it. Returns the
--- fields it answered with.
function H.settle(bufnr)
  bufnr = bufnr or api.nvim_get_current_buf()
  local got
  require('maskd.client').request(bufnr, 'maskd/fields', function()
    return { textDocument = { uri = vim.uri_from_bufnr(bufnr), version = edits.version(bufnr) } }
  end, function(err, list)
    got = err and {} or list or {}
  end)
  H.wait(function()
    return got ~= nil
  end, 'the daemon to answer maskd/fields')
  H.sleep(30)
  return got
end

-- Assertions ---------------------------------------------------------------------------

--- The cursor as (UTF-16 offset in its line, 0-based row, byte column).
function H.caret()
  local row, col = unpack(api.nvim_win_get_cursor(0))
  local line = edits.line(0, row - 1)
  return edits.utf16_col(line, col), row - 1, col
end

local function fail(msg, level)
  error(msg, (level or 1) + 1)
end

function H.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    fail(('%s: expected %s, got %s'):format(what or 'value', vim.inspect(want), vim.inspect(got)), 2)
  end
end

--- Asserts the text of line `opts.row` (default 0) and the cursor's UTF-16 offset in it
--- (`opts.byte`: also its byte column; `opts.mode`: the mode).
function H.expect(text, caret, opts)
  opts = opts or {}
  local row = opts.row or 0
  local got = api.nvim_buf_get_lines(0, row, row + 1, false)[1]
  local c, crow, byte = H.caret()
  local where = opts.after and (' after ' .. opts.after) or ''
  if got ~= text then
    fail(('text%s: expected %q, got %q'):format(where, text, got), 2)
  end
  if crow ~= row or c ~= caret then
    local msg = 'cursor%s in %q: expected line %d offset %d, got line %d offset %d'
    fail(msg:format(where, got, row, caret, crow, c), 2)
  end
  if opts.byte and byte ~= opts.byte then
    fail(('cursor%s: expected byte column %d, got %d'):format(where, opts.byte, byte), 2)
  end
  if opts.mode and api.nvim_get_mode().mode ~= opts.mode then
    fail(('mode%s: expected %s, got %s'):format(where, opts.mode, api.nvim_get_mode().mode), 2)
  end
end

--- Types `key` (nvim_input notation) and asserts text and caret afterwards.
function H.step(key, text, caret, opts)
  opts = vim.tbl_extend('keep', opts or {}, { after = key })
  H.keys(key)
  H.expect(text, caret, opts)
end

--- Types the characters of `text`, asserting after each one the state in `states`
--- (a list of {text, caret}).
function H.steps(text, states, opts)
  local chars = vim.fn.split(text, '\\zs')
  assert(#chars == #states, 'one state per character')
  for i, ch in ipairs(chars) do
    H.step(H.literal(ch), states[i][1], states[i][2], vim.tbl_extend('force', opts or {}, { byte = states[i].byte }))
  end
end

-- Running ------------------------------------------------------------------------------

local cases = {}

--- Registers a test case.
function H.case(name, fn)
  table.insert(cases, { name = name, fn = fn })
end

--- Runs `fn` as the test's coroutine once Neovim is up; `fn` returns true when everything
--- passed. Quits with 0 then, with 1 on failure or error, and with 2 from a watchdog.
function H.main(fn, opts)
  opts = opts or {}
  vim.defer_fn(function()
    vim.defer_fn(function()
      H.out('watchdog: the test file ran too long')
      vim.cmd('cquit 2')
    end, tonumber(os.getenv('MASKD_TEST_WATCHDOG') or '') or 170000)
    local co = coroutine.create(function()
      local ok, passed = xpcall(function()
        H.setup(opts.setup)
        return fn()
      end, debug.traceback)
      if not ok then
        H.out('error: ' .. tostring(passed))
      end
      pcall(require('maskd.client').stop)
      vim.cmd(ok and passed and 'qall!' or 'cquit 1')
    end)
    resume(co)
  end, 0)
end

--- Runs the registered cases in order, prints one line per case and a summary line.
function H.run(opts)
  H.main(function()
    local passed, failed = 0, 0
    for _, c in ipairs(cases) do
      local ok, err = xpcall(c.fn, debug.traceback)
      if ok then
        passed = passed + 1
        H.out('ok    ' .. c.name)
      else
        failed = failed + 1
        H.out('FAIL  ' .. c.name .. '\n      ' .. tostring(err):gsub('\n', '\n      '))
      end
    end
    H.out(('%d passed, %d failed'):format(passed, failed))
    return failed == 0
  end, opts)
end

return H
