-- Plays the shared conformance vectors (Protocol/vectors/engine/*.json and presets/*.json) through the
-- plugin's own typing path: each case's text in a buffer, a field over it opened with
-- maskd/openField, and each step done as a person would in Insert mode (keys through
-- nvim_input, pastes through nvim_paste), the daemon formatting through didFormat.
-- Run: timeout 170 nvim --headless --clean -u test/vectors_spec.lua
-- MASKD_VECTORS: another directory of vector files. MASKD_VECTORS_VERBOSE=1: one line per case.
--
-- What an editor cannot express is skipped and counted, with the reason:
-- - a raw `edit` step (a maskd/apply edit with its own selection);
-- - a forward delete of a literal: a didChange says what was deleted, not which side of
--   the caret, and the daemon takes every deletion for a backspace;
-- - the caret a `format` step carries through: maskd/openField puts the cursor at the
--   field's end (or leaves it when the text is in form), so a carried caret elsewhere is not
--   observed; the runner then puts the caret where the vector says for the next steps;
-- - a selection that an edit left selected: after a change Neovim has a cursor.
-- Text and state are still checked in a step with such an expectation.
-- Typing or pasting over a selection is one change replacing it (nvim_buf_set_text), as the
-- vector says; Vim's own Select mode would delete first and insert after, two changes.
-- A grapheme cluster that Vim counts as several characters is typed as one insertion.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local api = vim.api
local edits = require('maskd.edits')
local fields = require('maskd.fields')
local maskd = H.maskd

local dirs = os.getenv('MASKD_VECTORS') and { os.getenv('MASKD_VECTORS') }
  or { H.repo_root .. '/Protocol/vectors/engine', H.repo_root .. '/Protocol/vectors/presets' }
local verbose = os.getenv('MASKD_VECTORS_VERBOSE') == '1'

local STATE_KEYS = { 'value', 'complete', 'valid', 'problems', 'next', 'placeholder', 'mask', 'brand', 'region', 'type', 'extension', 'e164', 'rfc3966' }

local function u16len(s)
  return edits.utf16_col(s, #s)
end

local function nilish(v)
  return v == nil or v == vim.NIL
end

local function same(a, b)
  if nilish(a) and nilish(b) then
    return true
  end
  return vim.deep_equal(a, b)
end

--- The case's one line, the caret (UTF-16) and the selection {s, e} or nil.
local function line()
  return api.nvim_buf_get_lines(0, 0, 1, false)[1] or ''
end

local function put_caret(c)
  api.nvim_win_set_cursor(0, { 1, edits.byte_col(line(), c) })
end

local function bytes(s, e)
  local l = line()
  return edits.byte_col(l, s), edits.byte_col(l, e)
end

local Skip = {}

local function skip(reason)
  error(setmetatable({ reason = reason }, Skip), 0)
end

local Fail = {}

local function fail(msg)
  error(setmetatable({ msg = msg }, Fail), 0)
end

local function request(fn, what)
  local done, err, result = false, nil, nil
  fn(function(e, r)
    done, err, result = true, e, r
  end)
  H.wait(function()
    return done
  end, what)
  return err, result
end

local function open(mask)
  local bufnr = api.nvim_get_current_buf()
  local l = line()
  local range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = u16len(l) } }
  return request(function(cb)
    -- A format step reads junk into the mask as the vectors expect: forced (see vectors/README).
    maskd.open_field(mask, { range = range, resolve = false, silent = true, force = true }, cb)
  end, 'maskd/openField')
end

--- Splits `s` into grapheme clusters, near enough for the vectors: Vim's characters
--- (which keep combining marks with their base), joined across a zero-width joiner, with
--- emoji modifiers and variation selectors, and regional indicators in pairs.
local function graphemes(s)
  local out, ri = {}, 0
  local joiner = false
  for _, ch in ipairs(vim.fn.split(s, '\\zs')) do
    local cp = vim.fn.char2nr(ch)
    local extend = cp == 0x200D or (cp >= 0x1F3FB and cp <= 0x1F3FF) or (cp >= 0xFE00 and cp <= 0xFE0F)
    local is_ri = cp >= 0x1F1E6 and cp <= 0x1F1FF
    if #out > 0 and (extend or joiner or (is_ri and ri % 2 == 1)) then
      out[#out] = out[#out] .. ch
    else
      table.insert(out, ch)
      ri = 0
    end
    ri = is_ri and ri + 1 or 0
    joiner = cp == 0x200D
  end
  return out
end

-- One step --------------------------------------------------------------------------

--- Runs one step; returns the accumulated {rejected, overflow} and a set of expectation
--- keys this step cannot verify.
local function play(step, ctx)
  local caught = { rejected = '', overflow = '' }
  local unverifiable = {}
  local function gather(r)
    caught.rejected = caught.rejected .. (type(r.rejected) == 'string' and r.rejected or '')
    caught.overflow = caught.overflow .. (type(r.overflow) == 'string' and r.overflow or '')
  end
  local function replace_selection(text)
    local s, e = bytes(ctx.sel[1], ctx.sel[2])
    ctx.sel = nil
    gather(H.change(function()
      api.nvim_buf_set_text(0, 0, s, 0, e, vim.split(text, '\n', true))
    end, 'replacing the selection'))
  end

  if step.format then
    -- Reading the line into an empty field: open it (again) over the whole line.
    if ctx.field then
      request(function(cb)
        maskd.close(cb)
      end, 'maskd/closeField')
    end
    local err, result = open(ctx.mask)
    if err then
      fail('openField failed: ' .. tostring(err.message))
    end
    ctx.field = result.field
    gather(result)
    -- openField carries no selection: a caret the vector expects elsewhere than where the
    -- cursor is now is not observed, and is put there for the steps that follow.
    local want = step.expect or {}
    local c = select(1, H.caret())
    local carried = type(want.selection) == 'table' and want.selection or (want.caret and { want.caret, want.caret })
    if carried and (carried[1] ~= carried[2] or carried[2] ~= c) then
      unverifiable.caret, unverifiable.selection = true, true
      put_caret(carried[2])
      ctx.sel = carried[1] ~= carried[2] and { carried[1], carried[2] } or nil
    else
      ctx.sel = nil
    end
  elseif step.keys then
    for i, ch in ipairs(graphemes(step.keys)) do
      if ch:find('\n') then
        skip('a line break typed into a field')
      end
      if i == 1 and ctx.sel then
        replace_selection(ch)
      elseif vim.fn.strchars(ch) > 1 then
        -- A cluster Vim counts as several characters (👍🏽, 🇫🇷) is one insertion, as a
        -- terminal or an input method delivers it.
        gather(H.paste(ch))
      else
        gather(H.keys(H.literal(ch)))
      end
    end
  elseif step.insert then
    if step.insert:find('\n') then
      skip('a line break pasted into a field')
    end
    if ctx.sel then
      replace_selection(step.insert)
    else
      gather(H.paste(step.insert))
    end
  elseif step.backspace or step.delete then
    local forward = step.delete ~= nil
    local n = (forward and step.delete or step.backspace)
    n = type(n) == 'number' and n or 1
    for i = 1, n do
      local c = select(1, H.caret())
      local s, e
      if i == 1 and ctx.sel then
        s, e = ctx.sel[1], ctx.sel[2]
      elseif forward then
        s, e = c, c + 1
      end
      if forward and s then
        local l = line()
        local bs, be = edits.byte_col(l, s), edits.byte_col(l, e)
        local gone = l:sub(bs + 1, be)
        if gone ~= '' and not vim.fn.split(gone, '\\zs')[1]:match('^[%w\128-\255]') then
          skip('a forward delete of a literal (a didChange cannot say which side of the caret)')
        end
      end
      if i == 1 and ctx.sel then
        replace_selection('')
      else
        gather(H.keys(forward and '<Del>' or '<BS>'))
      end
    end
  elseif step.select then
    local s, e = step.select[1], step.select[2]
    put_caret(e)
    ctx.sel = s ~= e and { s, e } or nil
  elseif step.setMask then
    local err, result = request(function(cb)
      maskd.set_mask(step.setMask, { resolve = false, silent = true, force = true }, cb)
    end, 'maskd/setMask')
    if err then
      fail('setMask failed: ' .. tostring(err.message))
    end
    gather(result or {})
  elseif step.edit then
    skip('a raw maskd/apply edit')
  else
    skip('an unknown step ' .. vim.inspect(vim.tbl_keys(step)))
  end
  return caught, unverifiable
end

local function check(step, ctx, caught, unverifiable)
  local want = step.expect
  if type(want) ~= 'table' then
    return false
  end
  local skipped = false
  if want.text ~= nil and want.text ~= line() then
    fail(('text: expected %q, got %q'):format(want.text, line()))
  end
  local c = select(1, H.caret())
  local sel = ctx.sel or { c, c }
  if want.caret ~= nil then
    if unverifiable.caret then
      skipped = true
    elseif want.caret ~= sel[2] then
      fail(('caret: expected %d, got %d in %q'):format(want.caret, sel[2], line()))
    end
  end
  if type(want.selection) == 'table' then
    if unverifiable.selection or (not ctx.sel and want.selection[1] ~= want.selection[2]) then
      skipped = true
    elseif not vim.deep_equal(want.selection, sel) then
      fail(('selection: expected %s, got %s'):format(vim.inspect(want.selection), vim.inspect(sel)))
    end
  end
  local state = fields.list(api.nvim_get_current_buf())[1] or {}
  for _, k in ipairs(STATE_KEYS) do
    if want[k] ~= nil and not same(want[k], state[k]) then
      fail(('%s: expected %s, got %s'):format(k, vim.inspect(want[k]), vim.inspect(state[k])))
    end
  end
  for _, k in ipairs({ 'rejected', 'overflow' }) do
    if want[k] ~= nil and want[k] ~= caught[k] then
      fail(('%s: expected %q, got %q'):format(k, want[k], caught[k]))
    end
  end
  return skipped
end

-- One case --------------------------------------------------------------------------

local totals = { passed = 0, failed = 0, skipped = 0 }
local reasons = {}

local function count(kind, reason)
  totals[kind] = totals[kind] + 1
  if reason then
    reasons[reason] = (reasons[reason] or 0) + 1
  end
end

local function run_case(file, case)
  local label = ('%s: %s'):format(vim.fn.fnamemodify(file, ':t'), case.name or '?')
  H.buffer({ case.text or '' })
  if type(case.error) == 'table' then
    local err = open(case.mask)
    local want = case.error
    if not err then
      count('failed')
      H.out(('FAIL  %s: the mask compiled, expected error %s'):format(label, vim.inspect(want)))
    elseif want.code and err.code ~= want.code then
      count('failed')
      H.out(('FAIL  %s: error code %s, expected %s (%s)'):format(label, err.code, want.code, err.message))
    elseif want.message and not tostring(err.message):find(want.message, 1, true) then
      count('failed')
      H.out(('FAIL  %s: error %q does not contain %q'):format(label, err.message, want.message))
    else
      count('passed')
      if verbose then
        H.out('ok    ' .. label)
      end
    end
    return
  end
  local steps = case.steps or {}
  local ctx = { mask = case.mask }
  H.keys('i')
  local first = steps[1]
  if not (first and first.format) then
    local err, result = open(case.mask)
    if err then
      count('failed')
      H.out(('FAIL  %s: openField failed: %s'):format(label, tostring(err.message)))
      for _ = 2, #steps do
        count('skipped', 'after a failed step')
      end
      return
    end
    ctx.field = result.field
  end
  local text = case.text or ''
  local sel = case.selection or { u16len(text), u16len(text) }
  put_caret(sel[2])
  ctx.sel = sel[1] ~= sel[2] and { sel[1], sel[2] } or nil

  local state = 'passed'
  for i, step in ipairs(steps) do
    if state ~= 'passed' then
      count('skipped', state == 'failed' and 'after a failed step' or 'after a skipped step')
    else
      local ok, err = pcall(function()
        local caught, unverifiable = play(step, ctx)
        return check(step, ctx, caught, unverifiable)
      end)
      if ok then
        if err then
          count('skipped', 'an expectation the editor cannot observe')
        else
          count('passed')
        end
      elseif getmetatable(err) == Skip then
        count('skipped', err.reason)
        state = 'skipped'
      else
        count('failed')
        state = 'failed'
        local msg = getmetatable(err) == Fail and err.msg or tostring(err)
        H.out(('FAIL  %s, step %d %s: %s'):format(label, i, vim.fn.json_encode(step), msg))
        -- Leave Insert mode cleanly for the next case, whatever the step left behind.
        if api.nvim_get_mode().mode ~= 'i' then
          H.keys('<Esc>')
        end
      end
    end
  end
  if verbose then
    H.out((state == 'failed' and 'FAIL  ' or 'ok    ') .. label)
  end
end

H.main(function()
  local all = 0
  for _, dir in ipairs(dirs) do
    local files = vim.fn.glob(dir .. '/*.json', false, true)
    table.sort(files)
    if #files == 0 then
      H.out('no vector files in ' .. dir)
    end
    all = all + #files
    local cases = 0
    for _, file in ipairs(files) do
      local data = vim.fn.json_decode(table.concat(vim.fn.readfile(file), '\n'))
      for _, case in ipairs(data.cases or {}) do
        cases = cases + 1
        run_case(file, case)
      end
    end
    H.out(('%d cases in %d files under %s'):format(cases, #files, dir))
  end
  local why = vim.tbl_keys(reasons)
  table.sort(why)
  for _, r in ipairs(why) do
    H.out(('  skipped %d: %s'):format(reasons[r], r))
  end
  H.out(('%d passed, %d failed, %d skipped'):format(totals.passed, totals.failed, totals.skipped))
  return totals.failed == 0 and all > 0
end)
