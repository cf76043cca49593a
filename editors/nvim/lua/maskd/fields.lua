-- What the plugin knows about each buffer: the last FieldState of every field the daemon
-- reported, the placeholder shown as virtual text after each field, the versions the
-- plugin's own edits produced, and counters that tests and :checkhealth read.
-- It also keeps, for a daemon that dies, what it takes to open every field again: the mask
-- each field was opened with, and its range as an extmark that follows the text typed
-- meanwhile (both ends take what is typed at them, as the daemon's fields do).
local M = {}

local api = vim.api
local edits = require('maskd.edits')

M.ns = api.nvim_create_namespace('maskd')
M.ranges_ns = api.nvim_create_namespace('maskd_ranges')

--- Whether placeholders are drawn; set by setup().
M.virtual_text = true

local buffers = {}

--- The plugin's record for `bufnr`, created on first use.
function M.buf(bufnr)
  local b = buffers[bufnr]
  if not b then
    b = {
      fields = {},
      own = {},
      -- field id -> its MaskSpec, and its range's extmark id.
      masks = {},
      marks = {},
      -- field id -> the changenr() right after its opening edited the text.
      opens = {},
      stats = { formats = 0, applied = 0, stale = 0, echo = 0, undo = 0, replies = 0, reopened = 0, reformats = 0, last_version = -1 },
    }
    buffers[bufnr] = b
  end
  return b
end

--- Forgets `bufnr` (on detach or wipe).
function M.forget(bufnr)
  buffers[bufnr] = nil
  if api.nvim_buf_is_valid(bufnr) then
    api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
    api.nvim_buf_clear_namespace(bufnr, M.ranges_ns, 0, -1)
  end
end

--- Moves the range extmark of FieldState `s` to the range the daemon reported.
local function mark_range(bufnr, b, s)
  local r = s.range
  if type(r) ~= 'table' or r.start.line ~= r['end'].line or r.start.line >= api.nvim_buf_line_count(bufnr) then
    return
  end
  local line = edits.line(bufnr, r.start.line)
  b.marks[s.field] = api.nvim_buf_set_extmark(bufnr, M.ranges_ns, r.start.line, edits.byte_col(line, r.start.character), {
    id = b.marks[s.field],
    end_row = r.start.line,
    end_col = edits.byte_col(line, r['end'].character),
    right_gravity = false,
    end_right_gravity = true,
  })
end

--- Records the MaskSpec field `id` of `bufnr` was opened (or last re-masked) with.
function M.remember(bufnr, id, spec)
  if type(id) == 'string' then
    M.buf(bufnr).masks[id] = spec
  end
end

--- What re-opening the fields of `bufnr` takes: a list of {field, mask, range} with each
--- range where the field's text is now, in document order.
function M.reopening(bufnr)
  local b = M.buf(bufnr)
  local out = {}
  for _, s in ipairs(M.list(bufnr)) do
    local mark = b.marks[s.field]
    local spec = b.masks[s.field]
    if mark and spec ~= nil then
      local m = api.nvim_buf_get_extmark_by_id(bufnr, M.ranges_ns, mark, { details = true })
      if m[1] then
        local row, col, d = m[1], m[2], m[3]
        local line = edits.line(bufnr, row)
        local erow, ecol = d.end_row or row, d.end_col or col
        if erow == row then
          table.insert(out, {
            field = s.field,
            mask = spec,
            range = {
              start = { line = row, character = edits.utf16_col(line, col) },
              ['end'] = { line = row, character = edits.utf16_col(line, ecol) },
            },
          })
        end
      end
    end
  end
  return out
end

local function is_state(s)
  return type(s) == 'table' and type(s.field) == 'string'
end

--- Records FieldStates (a list, as didFormat's `fields`); other fields are kept.
function M.update(bufnr, states)
  local b = M.buf(bufnr)
  for _, s in ipairs(type(states) == 'table' and states or {}) do
    if is_state(s) then
      b.fields[s.field] = s
      mark_range(bufnr, b, s)
    end
  end
  M.render(bufnr)
end

--- Replaces every recorded field of `bufnr` by `states` (as maskd/fields returns them).
function M.reset(bufnr, states)
  local b = M.buf(bufnr)
  b.fields = {}
  M.update(bufnr, states)
  for id, mark in pairs(b.marks) do
    if not b.fields[id] then
      api.nvim_buf_del_extmark(bufnr, M.ranges_ns, mark)
      b.marks[id] = nil
    end
  end
end

--- Drops field `id` of `bufnr`.
function M.remove(bufnr, id)
  local b = M.buf(bufnr)
  b.fields[id] = nil
  b.masks[id] = nil
  b.opens[id] = nil
  if b.marks[id] then
    api.nvim_buf_del_extmark(bufnr, M.ranges_ns, b.marks[id])
    b.marks[id] = nil
  end
  M.render(bufnr)
end

--- Whether a didFormat's cursor `pos` goes where the editor's cursor is: with edits it always
--- does; without, only when it lies in one of `states` (didFormat's `fields`), the engine's caret
--- in the field typed in. Elsewhere the change reached beyond its fields (a deleted, replaced or
--- joined line), and the cursor stays where the person's command put it (`dd` keeps the column).
function M.holds(states, pos)
  if type(pos) ~= 'table' or type(states) ~= 'table' then
    return false
  end
  for _, s in ipairs(states) do
    local r = is_state(s) and s.range
    if type(r) == 'table' and r.start.line == pos.line and r['end'].line == pos.line
        and r.start.character <= pos.character and pos.character <= r['end'].character then
      return true
    end
  end
  return false
end

--- Drops the fields whose ids are in `ids` (didFormat's `closed`; absent: none).
function M.close(bufnr, ids)
  if type(ids) ~= 'table' or #ids == 0 then
    return
  end
  for _, id in ipairs(ids) do
    if type(id) == 'string' then
      M.remove(bufnr, id)
    end
  end
end

--- The recorded fields of `bufnr` in document order.
function M.list(bufnr)
  local out = {}
  for _, s in pairs(M.buf(bufnr).fields) do
    table.insert(out, s)
  end
  table.sort(out, function(a, b)
    local x, y = a.range.start, b.range.start
    return x.line < y.line or x.line == y.line and x.character < y.character
  end)
  return out
end

--- The recorded field containing or touching the UTF-16 position (row, col16), or nil.
function M.at(bufnr, row, col16)
  for _, s in ipairs(M.list(bufnr)) do
    local r = s.range
    if r.start.line == row and r.start.character <= col16 and col16 <= r['end'].character then
      return s
    end
  end
end

--- The recorded field under the cursor of the current window, or nil: touching the caret,
--- or in Normal mode touching either side of the character the cursor is on.
function M.under_cursor()
  local bufnr = api.nvim_get_current_buf()
  if not buffers[bufnr] then
    return nil
  end
  local row, byte = unpack(api.nvim_win_get_cursor(0))
  local line = edits.line(bufnr, row - 1)
  local col16 = edits.utf16_col(line, byte)
  local found = M.at(bufnr, row - 1, col16)
  local mode = api.nvim_get_mode().mode:sub(1, 1)
  if not found and mode ~= 'i' and mode ~= 'R' and byte < #line then
    found = M.at(bufnr, row - 1, edits.utf16_col(line, byte + #vim.fn.strcharpart(line:sub(byte + 1), 0, 1)))
  end
  return found
end

local function placeholder_pos(line, col)
  if vim.fn.has('nvim-0.10') == 1 then
    return 'inline'
  end
  -- Neovim 0.7-0.9 cannot insert virtual text inside a line: an overlay at the end of the
  -- line stands right after the field, and elsewhere the hint goes to the end of the line.
  return col >= #line and 'overlay' or 'eol'
end

--- Redraws the placeholders of `bufnr`.
function M.render(bufnr)
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  if not M.virtual_text then
    return
  end
  local count = api.nvim_buf_line_count(bufnr)
  for _, s in ipairs(M.list(bufnr)) do
    local ph = s.placeholder
    local row = s.range['end'].line
    if type(ph) == 'string' and ph ~= '' and row < count then
      local line = edits.line(bufnr, row)
      local col = edits.byte_col(line, s.range['end'].character)
      local opts = {
        virt_text = { { ph, 'MaskdPlaceholder' } },
        virt_text_pos = placeholder_pos(line, col),
        hl_mode = 'combine',
      }
      if vim.fn.has('nvim-0.10') == 1 then
        -- A placeholder goes with its line (`dd`): left on the next line until the daemon's
        -- `closed` comes, the inline text would shift that line's columns, and the cursor
        -- Neovim places in it would land elsewhere.
        opts.invalidate = true
        opts.undo_restore = false
      end
      api.nvim_buf_set_extmark(bufnr, M.ns, row, col, opts)
    end
  end
end

local function flag(v)
  return v == true
end

--- `chunks` (as nvim_echo takes them) cut to `width` display cells, the last one ending
--- in an ellipsis when something was cut.
function M.fit(chunks, width)
  local out, used = {}, 0
  for _, c in ipairs(chunks) do
    local w = vim.fn.strdisplaywidth(c[1])
    if used + w <= width then
      table.insert(out, c)
      used = used + w
    else
      local room = width - used - 1
      if room > 0 then
        local cut = c[1]
        while vim.fn.strdisplaywidth(cut) > room do
          cut = vim.fn.strcharpart(cut, 0, vim.fn.strchars(cut) - 1)
        end
        table.insert(out, { cut .. '…', c[2] })
      end
      break
    end
  end
  return out
end

--- A one-line description of a FieldState, as :MaskdInfo and status() show it.
function M.describe(s)
  local parts = {}
  if type(s.brand) == 'string' then
    table.insert(parts, s.brand)
  end
  table.insert(parts, s.value ~= '' and s.value or '(empty)')
  local how
  if flag(s.valid) then
    how = 'valid'
  elseif flag(s.complete) then
    local problems = type(s.problems) == 'table' and table.concat(s.problems, ', ') or ''
    how = 'invalid' .. (problems ~= '' and ': ' .. problems or '')
  else
    how = 'incomplete' .. (type(s.next) == 'string' and ', next ' .. s.next or '')
  end
  table.insert(parts, '[' .. how .. ']')
  return table.concat(parts, ' ')
end

return M
