-- What the plugin knows about each buffer: the last FieldState of every field the daemon
-- reported, the placeholder shown as virtual text after each field, the versions the
-- plugin's own edits produced, and counters that tests and :checkhealth read.
local M = {}

local api = vim.api
local edits = require('maskd.edits')

M.ns = api.nvim_create_namespace('maskd')

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
      stats = { formats = 0, applied = 0, stale = 0, echo = 0, replies = 0, last_version = -1 },
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
  end
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
    end
  end
  M.render(bufnr)
end

--- Replaces every recorded field of `bufnr` by `states` (as maskd/fields returns them).
function M.reset(bufnr, states)
  M.buf(bufnr).fields = {}
  M.update(bufnr, states)
end

--- Drops field `id` of `bufnr`.
function M.remove(bufnr, id)
  M.buf(bufnr).fields[id] = nil
  M.render(bufnr)
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

--- The recorded field under the cursor of the current window, or nil.
function M.under_cursor()
  local bufnr = api.nvim_get_current_buf()
  if not buffers[bufnr] then
    return nil
  end
  local row, byte = unpack(api.nvim_win_get_cursor(0))
  return M.at(bufnr, row - 1, edits.utf16_col(edits.line(bufnr, row - 1), byte))
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
      api.nvim_buf_set_extmark(bufnr, M.ns, row, col, {
        virt_text = { { ph, 'MaskdPlaceholder' } },
        virt_text_pos = placeholder_pos(line, col),
        hl_mode = 'combine',
      })
    end
  end
end

local function flag(v)
  return v == true
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
