-- maskd: load guard and user commands; everything else lives in lua/maskd/.
if vim.g.loaded_maskd or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_maskd = true

local function complete(arglead, cmdline)
  return require('maskd').complete(arglead, cmdline)
end

-- The placeholder's colour: linked again after every :colorscheme, which clears links.
local function highlight()
  vim.cmd('highlight default link MaskdPlaceholder Comment')
end
highlight()
vim.api.nvim_create_autocmd('ColorScheme', {
  group = vim.api.nvim_create_augroup('maskd_highlight', { clear = true }),
  callback = highlight,
})

local command = vim.api.nvim_create_user_command

command('MaskdField', function(o)
  require('maskd').field_command(o)
end, {
  nargs = '+',
  range = true,
  bang = true,
  complete = complete,
  desc = 'maskd: open a field over the selection or word (one per line over several lines)',
})

command('MaskdSetMask', function(o)
  require('maskd').set_mask(o.args, { force = o.bang })
end, { nargs = '+', bang = true, complete = complete, desc = 'maskd: change the mask of the field under the cursor' })

command('MaskdClose', function()
  require('maskd').close()
end, { nargs = 0, desc = 'maskd: close the field under the cursor' })

command('MaskdInfo', function()
  require('maskd').info()
end, { nargs = 0, desc = "maskd: show the state of the field under the cursor" })

command('MaskdFields', function()
  require('maskd').fields_qf()
end, { nargs = 0, desc = "maskd: list the buffer's fields in the quickfix list" })
