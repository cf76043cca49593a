" maskd: as-you-type masks for phone, card and ID fields, formatted by the maskd daemon.
" This file only checks the Vim, sets the load guard and defines the commands; the rest
" is loaded on first use from autoload/maskd/.
if exists('g:loaded_maskd') || !has('vim9script') || v:version < 900 || !has('patch-8.2.4780') || !has('channel')
  " Vim9 script and LSP channels (job_start with in_mode 'lsp') are needed.  The guard is
  " here, before `vim9script`: sourcing a Vim9 script again clears its imports, which the
  " commands below use.
  finish
endif
vim9script
g:loaded_maskd = 1

import autoload '../autoload/maskd/commands.vim'

# Linked again after every :colorscheme, which clears links.
highlight default link MaskdPlaceholder Comment
augroup maskd_highlight
  autocmd!
  autocmd ColorScheme * highlight default link MaskdPlaceholder Comment
augroup END

# Where field rules may apply (g:maskd_rules, a .maskd.json above the file), a buffer is
# attached as it opens; elsewhere the daemon starts with the first field command.
augroup maskd_rules
  autocmd!
  autocmd BufReadPost,BufNewFile * commands.AttachForRules(str2nr(expand('<abuf>')))
  # A .maskd.json saved here takes effect at once (Vim watches no files for the daemon).
  autocmd BufWritePost .maskd.json commands.RulesFileSaved(expand('<afile>'))
augroup END

command! -range -bang -nargs=+ -complete=customlist,commands.Complete MaskdField commands.Field(<q-args>, <range>, <line1>, <line2>, <bang>false)
command! -bang -nargs=+ -complete=customlist,commands.Complete MaskdSetMask commands.SetMask(<q-args>, <bang>false)
command! -nargs=0 -bar MaskdClose commands.Close()
command! -nargs=0 -bar MaskdInfo commands.Info()
command! -nargs=0 -bar MaskdFields commands.Fields()
