;;; maskd.el --- As-you-type masks for phone, card and ID fields  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; URL: https://github.com/maskd/maskd
;; Keywords: convenience, tools
;; Package-Requires: ((emacs "28.1"))

;; This file is not part of GNU Emacs.

;;; Commentary:

;; maskd formats fields (phone, card, ID numbers, dates...) as you type
;; them.  The formatting is done by the maskd daemon, which speaks
;; JSON-RPC over stdio with LSP framing; this package is its client,
;; built on the `jsonrpc' library that comes with Emacs.
;;
;; Quick start:
;;
;;   (require 'maskd)
;;   (setq maskd-command '("/path/to/maskd"))
;;
;; Then, on the text "Tel: " with point after it, M-x maskd-field RET
;; phone.us RET and type 5551234567: the buffer shows
;; "Tel: +1 (555) 123-4567".  The mask is a preset name (completion
;; offers the daemon's presets and your own `maskd-presets'), a mask in
;; bracket notation such as "+1 ([000]) [000]-[0000]", or a JSON object
;; such as {"groups": [4, 4, 4, 4]}.
;;
;; `maskd-field' turns on `maskd-mode' in the buffer, which keeps the
;; daemon's copy of the buffer up to date.  One daemon serves every
;; buffer of an Emacs session.  Commands:
;;
;;   `maskd-field'     open a field over the region or the word at point
;;   `maskd-set-mask'  change the mask of the field at point
;;   `maskd-close'     stop formatting the field at point (its text stays)
;;   `maskd-info'      show the state of the field at point
;;   `maskd-shutdown'  stop the daemon
;;
;; How it works: every change the person makes is sent to the daemon
;; (`textDocument/didChange', positions in UTF-16 code units).  The
;; changes one command makes are sent together when it ends, a deletion
;; and the insertion that follows it at the same place as one
;; replacement (typing over a selection).  When a change touched a
;; field the daemon answers with `maskd/didFormat': edits that bring the
;; field into form, and the cursor.  maskd waits for that answer before
;; the next command, applies the edits in the same undo step as the
;; keystroke (so one undo takes both), and moves point.  The placeholder
;; still to fill is shown after the field with an overlay.  Answers for a
;; version of the buffer that has changed since are dropped, and the
;; changes made by applying the daemon's edits are recognised by the
;; daemon as its own echo.
;;
;; For eglot users, maskd-eglot.el handles `maskd/didFormat' through
;; eglot's connection instead.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'project)
(require 'rx)
(require 'seq)
(require 'subr-x)
(require 'url-util)

(defconst maskd-version "0.1.0"
  "The version of maskd.el.")

;;;; Options

(defgroup maskd nil
  "As-you-type masks for phone, card and ID fields, formatted by the maskd daemon."
  :group 'convenience
  :prefix "maskd-")

(defcustom maskd-command '("maskd")
  "The daemon's command line: the program, then its arguments."
  :type '(repeat string))

(defcustom maskd-presets nil
  "Masks of your own, offered by `maskd-field' before the daemon's presets.
An alist of (NAME . MASK), where MASK is a string in bracket notation
such as \"+44 [0000] [000000]\", or a plist standing for a JSON object
such as (:groups [4 6 5] :separator \" \")."
  :type '(alist :key-type string :value-type sexp))

(defcustom maskd-show-placeholder t
  "Whether to show the placeholder still to fill after each field."
  :type 'boolean)

(defcustom maskd-format-timeout 1.0
  "Seconds to wait for the daemon's formatting after a change to a field.
maskd waits at the end of the command that made the change, so the
next key acts on the formatted text.  When the daemon takes longer,
its answer is applied when it arrives, unless the buffer has changed."
  :type 'number)

(defcustom maskd-request-timeout 5
  "Seconds to wait for the daemon's answer to a request."
  :type 'number)

(defcustom maskd-events-buffer-size 0
  "How many characters of the protocol log to keep (0: none, nil: all).
The log is in the buffer `*maskd events*'.  It is off by default:
jsonrpc pretty-prints every message into it, which costs more than
the rest of a keystroke in a buffer of many fields."
  :type '(choice (const :tag "Unlimited" nil) integer))

;;;; Field rules: fields that open themselves

(defconst maskd-rules-file-name ".maskd.json"
  "The file of a workspace folder that holds its field rules.")

(defun maskd--set-rules (symbol value)
  "Set SYMBOL (`maskd-rules') to VALUE and tell a running daemon."
  (set-default symbol value)
  (maskd--rules-changed))

(defcustom maskd-rules nil
  "Field rules of your own: fields that open themselves as files open.
A list of rules, each a plist written as in a `.maskd.json' file:

  (:files \"*.env\" :match \"^CARD=(.*)$\" :mask (:preset \"card\"))

`:files' is a glob over the file's path relative to its workspace
folder (see `maskd-workspace-root'; without a slash it matches the
file's name in any folder), `:languages' a list of languageIds,
`:match' a regex whose one capture group is the field, and `:mask'
a MaskSpec.  The daemon gets them as `initializationOptions.rules'
and applies them after those of the folder's `.maskd.json'.  Set
with `customize' or `setopt', they reach a running daemon at once."
  :type '(repeat (plist :tag "Rule"))
  :initialize #'custom-initialize-default
  :set #'maskd--set-rules)

(defcustom maskd-attach-by-rules t
  "Whether a file opens in `maskd-mode' by itself where rules may apply.
That is when `maskd-rules' is non-nil or the file's workspace folder
\(see `maskd-workspace-root') has a `.maskd.json'; the daemon decides
which files the rules match and opens their fields.  Files with
neither start no daemon.  Eglot users set this to nil and put
`maskd-eglot-ensure' on `find-file-hook' instead (`maskd-rules-attach'
is the function on that hook)."
  :type 'boolean)

(defface maskd-placeholder
  '((t :inherit shadow))
  "Face of the placeholder shown after a field.")

(defvar maskd-format-functions nil
  "Functions called after a `maskd/didFormat' was applied to a buffer.
Each is called with the buffer current and one argument, the
notification's params: a plist with `:edits', `:cursor', `:fields',
`:rejected' (the characters the field refused) and `:overflow' (the
characters cut because the mask was full).")

;;;; The connection

(define-error 'maskd-error "maskd")

(defvar maskd-mode)
(defvar maskd--changes)
(defvar maskd--full-sync)
(defvar-local maskd--opened nil
  "Non-nil once the daemon has been told about this buffer.")

(defvar maskd--connection nil
  "The connection to the daemon, shared by every buffer.")

(defvar maskd--server-info nil
  "The daemon's answer to `initialize', a plist.")

(defvar maskd--buffers (make-hash-table :test #'equal)
  "The buffers in `maskd-mode', by URI.")

(defvar maskd--last-error nil
  "The last error raised while handling a message from the daemon.")

(defvar maskd--folders nil
  "The workspace folders the daemon knows (true names, with a slash).")

(defun maskd--running-p ()
  "Return non-nil when the daemon is running."
  (and maskd--connection (jsonrpc-running-p maskd--connection)))

(defun maskd--connection ()
  "Return the connection to the daemon, starting it if needed."
  (if (maskd--running-p)
      maskd--connection
    (maskd--start)))

(defun maskd--program ()
  "Return the daemon's program as found, or signal one line naming the option."
  (unless (and (consp maskd-command) (cl-every #'stringp maskd-command))
    (signal 'maskd-error
            (list "`maskd-command' must be a list of strings, the program first")))
  (let ((program (car maskd-command)))
    (or (if (file-name-absolute-p program)
            (and (file-executable-p program) program)
          (executable-find program))
        (signal 'maskd-error
                (list (format "cannot run %s: no such program (set `maskd-command')"
                              program))))))

(defun maskd--start ()
  "Start the daemon and initialize it; return the connection."
  (let* ((name "maskd")
         (program (maskd--program))
         (stderr (format "*%s stderr*" name))
         (conn (make-instance
                'jsonrpc-process-connection
                :name name
                :events-buffer-scrollback-size maskd-events-buffer-size
                :process (lambda ()
                           (make-process
                            :name name
                            :command (cons program (cdr maskd-command))
                            :connection-type 'pipe
                            :coding 'utf-8-emacs-unix
                            :noquery t
                            :stderr (get-buffer-create stderr)))
                :notification-dispatcher #'maskd--handle-notification
                :request-dispatcher #'maskd--handle-request
                :on-shutdown #'maskd--on-shutdown)))
    (maskd--quiet-sentinel (jsonrpc--process conn))
    (setq maskd--connection conn)
    (condition-case err
        (let* ((root (maskd-workspace-root))
               (result (jsonrpc-request
                        conn :initialize
                        (list :processId (emacs-pid)
                              :clientInfo (list :name "maskd.el"
                                                :version maskd-version)
                              :rootUri (maskd--file-uri root)
                              :workspaceFolders (vector (maskd--folder root))
                              ;; maskd.el shows each field's state itself.
                              :initializationOptions
                              (list :diagnostics "off"
                                    :rules (maskd--rules-vector))
                              :capabilities
                              (list :general
                                    (list :positionEncodings ["utf-16"])
                                    :workspace (list :workspaceFolders t)))
                        :timeout maskd-request-timeout)))
          (setq maskd--folders (list root))
          (let ((encoding (plist-get (plist-get result :capabilities)
                                     :positionEncoding)))
            (unless (member encoding '(nil "utf-16"))
              (error "The daemon chose the position encoding %s" encoding)))
          (setq maskd--server-info result)
          (jsonrpc-notify conn :initialized (make-hash-table))
          conn)
      (error
       (setq maskd--connection nil)
       (ignore-errors (jsonrpc-shutdown conn t))
       (signal 'maskd-error
               (list (format "could not start %s: %s (see `maskd-command')"
                             program
                             (car (split-string (error-message-string err)
                                                "\n")))))))))

(defun maskd--quiet-sentinel (proc)
  "Keep jsonrpc's own line about PROC's exit out of the echo area.
maskd says once, itself, that the daemon exited and what it did."
  (let ((sentinel (process-sentinel proc)))
    (set-process-sentinel proc
                          (lambda (p change)
                            (let ((inhibit-message t)
                                  (message-log-max nil))
                              (funcall sentinel p change))))))

(defcustom maskd-max-restarts 3
  "How many times within a minute a daemon that exited is restarted.
After that, maskd stops formatting (typing is plain) until a field
is opened again."
  :type 'integer)

(defvar maskd--stopping nil
  "Non-nil while `maskd-shutdown' stops the daemon on purpose.")

(defvar maskd--restarts nil
  "When the daemon was restarted after it exited, newest first (`float-time').")

(defvar maskd--pending-restart nil
  "How the daemon exited (a string) while its restart is pending, or nil.")

(defvar maskd--sending nil
  "Non-nil while maskd sends a command's changes and awaits their formatting.")

(defun maskd-exit-reason (proc)
  "Return how the daemon's process PROC ended, for a message."
  (if (eq (process-status proc) 'signal)
      (format "killed by signal %d" (process-exit-status proc))
    (format "exit code %d" (process-exit-status proc))))

(defun maskd-recent-restarts (times)
  "Return the restart TIMES (`float-time') of the last minute."
  (let ((now (float-time)))
    (seq-filter (lambda (time) (< (- now time) 60)) times)))

(defun maskd--on-shutdown (conn)
  "Forget CONN, the connection to a daemon that has exited.
Unless `maskd-shutdown' stopped it, a new daemon is started and every
field re-opened, from a timer or at the end of the current command."
  (when (eq conn maskd--connection)
    (let ((initialized maskd--server-info))
      (setq maskd--connection nil
            maskd--server-info nil)
    (maphash (lambda (_uri buffer)
               (when (buffer-live-p buffer)
                 (with-current-buffer buffer
                   (setq maskd--opened nil
                         maskd--changes nil
                         maskd--full-sync nil))))
             maskd--buffers)
      ;; A daemon that never answered `initialize' is not restarted: its
      ;; start-up error has been reported, and restarting would loop.
      (if (or maskd--stopping (not initialized))
          (maskd--forget-all-fields)
        (setq maskd--pending-restart (maskd-exit-reason (jsonrpc--process conn)))
        (run-at-time 0 nil #'maskd--restart-later)))))

(defun maskd--forget-all-fields ()
  "Forget the fields of every buffer: typing is plain from now on."
  (maphash (lambda (_uri buffer)
             (when (buffer-live-p buffer)
               (with-current-buffer buffer
                 (maskd--clear-fields))))
           maskd--buffers))

(defun maskd--restart-later ()
  "Restart the daemon now, or leave it to the command under way.
A command that is sending its changes restarts it when it is done."
  (unless maskd--sending
    (maskd--restart)))

(defun maskd--restart ()
  "Start a new daemon after the last one exited, and re-open every field.
Say once, in one line, what happened.  After `maskd-max-restarts'
restarts within a minute, or when the new daemon does not start, the
fields are closed instead."
  (when maskd--pending-restart
    (let* ((reason (prog1 maskd--pending-restart
                     (setq maskd--pending-restart nil)))
           (recent (maskd-recent-restarts maskd--restarts)))
      (if (>= (length recent) maskd-max-restarts)
          (progn
            (maskd--forget-all-fields)
            (message "[maskd] the daemon exited (%s), %d times within a minute: \
not restarting it; fields closed until you open one"
                     reason (1+ (length recent))))
        (setq maskd--restarts (cons (float-time) recent))
        (condition-case err
            (let ((count 0))
              (maskd--connection)
              (maphash (lambda (_uri buffer)
                         (when (buffer-live-p buffer)
                           (with-current-buffer buffer
                             (when maskd-mode
                               (setq count (+ count (maskd--reopen)))))))
                       maskd--buffers)
              (message "[maskd] the daemon exited (%s); restarted it and \
re-opened %d field%s" reason count (if (= count 1) "" "s")))
          (error
           (maskd--forget-all-fields)
           (message "[maskd] the daemon exited (%s) and did not restart: %s; \
fields closed until you open one"
                    reason (if (eq (car err) 'maskd-error)
                               (cadr err)
                             (error-message-string err)))))))))

;;;###autoload
(defun maskd-shutdown ()
  "Stop the daemon; buffers in `maskd-mode' start it again when needed."
  (interactive)
  (when (maskd--running-p)
    (let ((conn maskd--connection)
          (maskd--stopping t))
      (ignore-errors
        (jsonrpc-request conn :shutdown nil :timeout maskd-request-timeout)
        (jsonrpc-notify conn :exit nil))
      ;; Give the daemon a moment to exit by itself, with code 0.
      (let ((proc (jsonrpc--process conn))
            (deadline (+ (float-time) 2)))
        (while (and (process-live-p proc) (< (float-time) deadline))
          (accept-process-output proc 0.02)))
      (jsonrpc-shutdown conn t)
      (maskd--on-shutdown conn))))

(defun maskd-preset-names ()
  "Return the names of the presets: yours, then the daemon's."
  (let* ((experimental (plist-get (plist-get maskd--server-info :capabilities)
                                  :experimental))
         (daemon (append (plist-get (plist-get experimental :maskd) :presets)
                         nil)))
    (seq-uniq (append (mapcar #'car maskd-presets) daemon))))

(defun maskd-preset-regions (preset)
  "Return the region codes the daemon's PRESET (`phone' or `postal') takes."
  (let ((experimental (plist-get (plist-get maskd--server-info :capabilities)
                                 :experimental)))
    (maskd--announced-regions (plist-get experimental :maskd) preset)))

(defun maskd--announced-regions (maskd preset)
  "Return the region codes MASKD (the daemon's announcement) lists for PRESET."
  (append (plist-get maskd (if (equal preset "phone") :phoneRegions :postalRegions))
          nil))

(defun maskd--mask-table (names regions)
  "Return a completion table of the mask NAMES and region codes.
After `phone ' or `postal ' it offers that preset with each code REGIONS
\(a function of the preset's name) returns."
  (completion-table-dynamic
   (lambda (input)
     (if (string-match "\\`\\(phone\\|postal\\)[ \t]+" input)
         (let ((preset (match-string 1 input)))
           (mapcar (lambda (code) (concat preset " " code))
                   (funcall regions preset)))
       names))))

(defun maskd--request (method params)
  "Send request METHOD with PARAMS to the daemon and return its result.
A JSON-RPC error is signalled as `maskd-error' with the message and
the error code."
  (condition-case err
      (jsonrpc-request (maskd--connection) method params
                       :timeout maskd-request-timeout)
    (jsonrpc-error
     (let ((data (cdr err)))
       (signal 'maskd-error
               (list (or (alist-get 'jsonrpc-error-message data)
                         (format "%s failed" method))
                     (alist-get 'jsonrpc-error-code data)))))))

(defun maskd--handle-request (_conn method _params)
  "Answer the daemon's request METHOD: maskd serves none."
  (jsonrpc-error :code -32601 :message (format "%s is not supported" method)))

(defun maskd--handle-notification (_conn method params)
  "Handle the daemon's notification METHOD with PARAMS."
  (condition-case-unless-debug err
      (pcase method
        ('maskd/didFormat (maskd--on-did-format params))
        ((or 'window/logMessage 'window/showMessage)
         (when (and (eq method 'window/showMessage)
                    (memql (plist-get params :type) '(1 2)))
           (message "[maskd] %s" (plist-get params :message)))))
    (error
     (setq maskd--last-error err)
     (message "[maskd] error handling %s: %s" method
              (error-message-string err)))))

;;;; Positions

(defconst maskd--astral-regexp (rx (any (#x10000 . #x10FFFF)))
  "Characters that take two UTF-16 code units.")

(defun maskd--astral-p (char)
  "Return non-nil if CHAR takes two UTF-16 code units."
  (and char (> char #xFFFF) (<= char #x10FFFF)))

(defun maskd--utf16-length (string)
  "Return the length of STRING in UTF-16 code units."
  (+ (length string) (cl-count-if #'maskd--astral-p string)))

(defun maskd--utf16-column (pos)
  "Return the UTF-16 column of POS in the current buffer."
  (save-excursion
    (goto-char pos)
    (let ((bol (line-beginning-position))
          (astral 0))
      (goto-char bol)
      (while (re-search-forward maskd--astral-regexp pos t)
        (setq astral (1+ astral)))
      (+ (- pos bol) astral))))

(defun maskd--position (pos)
  "Return the LSP position (UTF-16) of buffer position POS."
  (save-restriction
    (widen)
    (list :line (1- (line-number-at-pos pos t))
          :character (maskd--utf16-column pos))))

(defvar-local maskd--line-cache nil
  "The start of a line found by `maskd--point': (TICK LINE . BOL).
Valid while `buffer-chars-modified-tick' is TICK, so that converting
many positions in a row costs the distance between them, not between
each and the buffer's start.")

(defun maskd--point (position)
  "Return the buffer position of LSP POSITION (a plist, UTF-16 columns).
A line past the end is the end of the buffer; a column past the end
of its line is the line's end."
  (save-excursion
    (save-restriction
      (widen)
      (let* ((line (plist-get position :line))
             (column (plist-get position :character))
             (tick (buffer-chars-modified-tick))
             (cache (and (eql (car maskd--line-cache) tick) (cdr maskd--line-cache)))
             (from (if cache (car cache) 0)))
        (goto-char (if cache (cdr cache) (point-min)))
        (if (/= (forward-line (- line from)) 0)
            (goto-char (point-max))
          (setq maskd--line-cache (cons tick (cons line (point))))
          (let ((eol (line-end-position))
                (n 0))
            (while (and (< n column) (< (point) eol))
              (setq n (+ n (if (maskd--astral-p (char-after)) 2 1)))
              (forward-char 1))))
        (point)))))

(defun maskd--range (beg end)
  "Return the LSP range of the buffer region from BEG to END."
  (list :start (maskd--position beg) :end (maskd--position end)))

;;;; Documents

(defvar-local maskd--uri nil
  "The URI under which the daemon knows this buffer.")

(defvar-local maskd--version 0
  "The version of this buffer that the daemon was last sent.")

(defvar-local maskd--own nil
  "Versions made by applying the daemon's edits: the daemon's own echo.")

(defvar-local maskd--undoing nil
  "Non-nil when a change not yet sent was made by an undo or a redo.")

(defvar-local maskd--undone nil
  "Versions made by an undo or a redo, whose didFormat is not applied.")

(defvar-local maskd--before nil
  "What `maskd--before-change' saw of the change under way.")

(defvar-local maskd--changes nil
  "Changes not yet sent, newest first.
Each is a vector [START END TEXT BEG NEW-END], START and END being
LSP positions in the document as the previous changes left it; the
last one is still open: TEXT is nil and BEG and NEW-END delimit its
new text in the buffer.")

(defvar-local maskd--full-sync nil
  "Non-nil when the next didChange must carry the whole text.")

(defvar-local maskd--touched nil
  "Non-nil when the pending changes touch a field.")

(defvar-local maskd--applying nil
  "Non-nil while the daemon's edits are being applied.")

(defvar-local maskd--formatted -1
  "The version of the last `maskd/didFormat' received for this buffer.")

(defvar-local maskd--undo-mark nil
  "`buffer-undo-list' right after the person's last change was sent.")

(defvar-local maskd--fields nil
  "The open fields: a list of (ID STATE OVERLAY), STATE being a plist.")

(defvar-local maskd--tick nil
  "`buffer-chars-modified-tick' when the last change was recorded.")

(defvar-local maskd--stats nil
  "Counters of the didFormat handler, a plist (used by the tests).")

(defvar maskd--dirty nil
  "Buffers with changes not yet sent.")

(defvar maskd--flush-timer nil
  "Timer sending the changes made outside a command.")

(defvar maskd--untitled 0
  "Counter for the URIs of buffers that visit no file.")

(defun maskd--count (key)
  "Increment the counter KEY of `maskd--stats'."
  (setq maskd--stats (plist-put maskd--stats key
                                (1+ (or (plist-get maskd--stats key) 0)))))

(defun maskd--file-uri (file)
  "Return the `file:' URI of FILE, a true name (a directory without its slash)."
  (concat "file://" (url-hexify-string (directory-file-name file)
                                       url-path-allowed-chars)))

(defun maskd--make-uri ()
  "Return a URI for the current buffer that no other buffer has."
  (let ((uri (and buffer-file-name
                  (maskd--file-uri (file-truename buffer-file-name)))))
    (when (or (null uri)
              (let ((other (gethash uri maskd--buffers)))
                (and (buffer-live-p other) (not (eq other (current-buffer))))))
      (setq uri (format "untitled:maskd-%d" (cl-incf maskd--untitled))))
    uri))

(defun maskd--document ()
  "Return the VersionedTextDocumentIdentifier of the current buffer."
  (list :uri maskd--uri :version maskd--version))

(defun maskd--open-document ()
  "Tell the daemon about the current buffer (`textDocument/didOpen')."
  (let ((conn (maskd--connection)))
    (setq maskd--changes nil
          maskd--full-sync nil
          maskd--touched nil
          maskd--own nil
          maskd--formatted -1
          maskd--version 0)
    (when buffer-file-name
      (maskd--add-folder conn (maskd-workspace-root)))
    (jsonrpc-notify conn :textDocument/didOpen
                    (list :textDocument
                          (list :uri maskd--uri
                                :languageId (maskd-language-id)
                                :version maskd--version
                                :text (save-restriction
                                        (widen)
                                        (buffer-substring-no-properties
                                         (point-min) (point-max))))))
    (setq maskd--opened t
          maskd--tick (buffer-chars-modified-tick))))

(defun maskd--ensure-open ()
  "Make sure the daemon knows the current buffer and its latest text."
  (unless (and maskd--opened (maskd--running-p))
    (maskd--open-document))
  (maskd--flush))

;;;; Tracking changes

(defun maskd--touches-field-p (beg end)
  "Return non-nil if changing BEG..END may change an open field."
  (seq-some (lambda (field)
              (let* ((ov (nth 2 field))
                     (s (overlay-start ov))
                     (e (overlay-end ov)))
                (and s (if (= beg end)
                           (<= s beg e)
                         (and (<= beg e) (>= end s))))))
            maskd--fields))

(defun maskd--before-change (beg end)
  "Record what the change of BEG..END is about to replace.
The daemon's edits being applied are not recorded: they are sent as
they came (see `maskd--apply-edits')."
  (when (and maskd--opened (not maskd--applying))
    (let ((open (car maskd--changes)))
      (setq maskd--before
            (vector beg end
                    (maskd--position beg) (maskd--position end)
                    (and (<= (- end beg) 4096)
                         (buffer-substring-no-properties beg end))
                    (maskd--touches-field-p beg end)
                    ;; Where the open change ends, as an LSP position,
                    ;; when this change reaches past it.
                    (and open (> end (aref open 4))
                         (maskd--position (aref open 4))))))))

(defun maskd--after-change (beg end old-len)
  "Record the change of BEG..END that replaced OLD-LEN characters."
  (cond
   ((not maskd--opened))
   (maskd--applying
    (setq maskd--tick (buffer-chars-modified-tick)))
   (t
    (when undo-in-progress
      (setq maskd--undoing t))
    (let ((before maskd--before))
      (setq maskd--before nil)
      (cond
       ((or (null before)
            (> (aref before 0) beg)
            (< (aref before 1) (+ beg old-len)))
        ;; The change does not match what `before-change-functions' saw.
        (setq maskd--full-sync t
              maskd--touched t))
       (t
        ;; Emacs may announce a wider region than it changes (see
        ;; `casify-region'): the rest of that region is unchanged, so
        ;; the change replaces all of it.
        (let* ((b0 (aref before 0))
               (e0 (aref before 1))
               (new-end (+ e0 (- end beg old-len)))
               (old (aref before 4)))
          (unless (and old (= (- end beg) old-len)
                       (string= old (buffer-substring-no-properties
                                     b0 new-end)))
            (maskd--record b0 e0 new-end before)))))
      (setq maskd--tick (buffer-chars-modified-tick))
      (unless (memq (current-buffer) maskd--dirty)
        (push (current-buffer) maskd--dirty))
      (unless maskd--flush-timer
        ;; A command's changes are sent when it ends; this timer sends
        ;; those made outside the command loop.
        (setq maskd--flush-timer (run-at-time 0 nil #'maskd--flush-later)))))))

(defun maskd--record (b0 e0 new-end before)
  "Add the change of B0..E0, now B0..NEW-END, to those not yet sent.
BEFORE is what `maskd--before-change' recorded.  A change that
touches the open change is merged into it; any other one starts a
new change."
  (when (aref before 5)
    (setq maskd--touched t))
  (let* ((open (car maskd--changes))
         (ob (and open (aref open 3)))
         (oe (and open (aref open 4))))
    (if (and open (<= b0 oe) (>= e0 ob))
        (progn
          (when (< b0 ob)
            (aset open 0 (aref before 2))
            (aset open 3 b0))
          (if (> e0 oe)
              ;; The change reaches past the open one: map its end back
              ;; to the document the open change applies to.
              (let ((pe (aref before 3))
                    (oe-pos (aref before 6))
                    (start-end (aref open 1)))
                (aset open 1
                      (if (= (plist-get pe :line) (plist-get oe-pos :line))
                          (list :line (plist-get start-end :line)
                                :character (+ (plist-get start-end :character)
                                              (- (plist-get pe :character)
                                                 (plist-get oe-pos :character))))
                        (list :line (+ (plist-get start-end :line)
                                       (- (plist-get pe :line)
                                          (plist-get oe-pos :line)))
                              :character (plist-get pe :character))))
                (aset open 4 new-end))
            (aset open 4 (+ oe (- new-end e0)))))
      (when open
        ;; Close the open change.  This one is either after it, or
        ;; before it and has shifted it.
        (let ((shift (if (< e0 ob) (- new-end e0) 0)))
          (aset open 2 (buffer-substring-no-properties (+ ob shift)
                                                       (+ oe shift)))))
      (setq maskd--changes
            (cons (vector (aref before 2) (aref before 3) nil b0 new-end)
                  maskd--changes)))))

(defun maskd--flush (&optional own)
  "Send what changed in the current buffer since the last didChange.
With OWN, they are the daemon's edits being applied: its echo.
Return the version sent, or nil when there was nothing to send."
  (setq maskd--dirty (delq (current-buffer) maskd--dirty))
  (when (and maskd--opened (or maskd--changes maskd--full-sync)
             (maskd--running-p))
    (let ((changes
           (if maskd--full-sync
               (vector (list :text (save-restriction
                                     (widen)
                                     (buffer-substring-no-properties
                                      (point-min) (point-max)))))
             (vconcat
              (mapcar (lambda (c)
                        (list :range (list :start (aref c 0) :end (aref c 1))
                              :text (or (aref c 2)
                                        (buffer-substring-no-properties
                                         (aref c 3) (aref c 4)))))
                      (reverse maskd--changes))))))
      (setq maskd--changes nil
            maskd--full-sync nil
            maskd--version (1+ maskd--version))
      ;; The daemon may have died unnoticed yet: its exit is handled by
      ;; `maskd--on-shutdown', and the new one gets the whole text.
      (ignore-error file-error
        (jsonrpc-notify maskd--connection :textDocument/didChange
                        (list :textDocument (maskd--document)
                              :contentChanges changes)))
      (if own
          (setq maskd--own (cons maskd--version maskd--own)
                maskd--touched nil)
        (setq maskd--undo-mark buffer-undo-list)
        (when maskd--undoing
          (push maskd--version maskd--undone)))
      (setq maskd--undoing nil)
      maskd--version)))

(defun maskd--holding-undo-timer (fn)
  "Call FN, holding Emacs's undo timer back until FN is done.
The timer puts an undo boundary of its own into buffers changed
outside a command.  One falling while a key's formatting is awaited,
between the key and the daemon's edits that join it, would split the
person's typing into two undo steps."
  (let ((timer undo-auto-current-boundary-timer))
    (when (timerp timer)
      (cancel-timer timer))
    (unwind-protect
        (funcall fn)
      (when (and (timerp timer) (eq timer undo-auto-current-boundary-timer))
        (timer-activate timer)))))

(defun maskd--await-formatting (conn text-document version)
  "Wait until CONN's daemon has formatted VERSION of the current buffer.
TEXT-DOCUMENT identifies the buffer to the daemon.  The daemon
handles messages in order, so its answer to a request sent after the
didChange means that no didFormat is coming; the wait also ends after
`maskd-format-timeout'."
  (let* ((proc (jsonrpc--process conn))
         (buffer (current-buffer))
         (deadline (+ (float-time) maskd-format-timeout))
         (barrier nil))
    (jsonrpc-async-request
     conn :maskd/formatHints
     (list :textDocument text-document
           :position (list :line 0 :character 0))
     :success-fn (lambda (_) (setq barrier t))
     :error-fn (lambda (_) (setq barrier t))
     :timeout-fn (lambda () (setq barrier t))
     :timeout maskd-format-timeout)
    (maskd--holding-undo-timer
     (lambda ()
       (while (and (not barrier)
                   (< (buffer-local-value 'maskd--formatted buffer) version)
                   (process-live-p proc)
                   (< (float-time) deadline))
         (accept-process-output proc 0.05 nil t))))))

(defun maskd--await (version)
  "Wait for the daemon's answer to VERSION of the current buffer."
  (maskd--await-formatting maskd--connection (list :uri maskd--uri) version))

(defun maskd--send-all (await)
  "Send what changed in every buffer since its last didChange.
With AWAIT, wait for the formatting of those that touched a field."
  (when maskd--flush-timer
    (cancel-timer maskd--flush-timer)
    (setq maskd--flush-timer nil))
  (while maskd--dirty
    (let ((buffer (pop maskd--dirty)))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (let* ((touched maskd--touched)
                 (version (progn (setq maskd--touched nil) (maskd--flush))))
            (when (and await version touched (> maskd-format-timeout 0))
              (maskd--await version))))))))

(defun maskd--post-command ()
  "Send what the command that ended changed; await the formatting."
  ;; An error or a quit (C-g during the wait) would take this function
  ;; off `post-command-hook'.
  (condition-case err
      (progn
        (when (and maskd-mode maskd--opened
                   (not (eql maskd--tick (buffer-chars-modified-tick))))
          ;; The text changed with `inhibit-modification-hooks' bound:
          ;; send all of it (the daemon diffs it against its copy).
          (setq maskd--full-sync t
                maskd--touched t
                maskd--tick (buffer-chars-modified-tick))
          (cl-pushnew (current-buffer) maskd--dirty))
        (when maskd--dirty
          (let ((maskd--sending t))
            (maskd--send-all t)))
        (when maskd--pending-restart
          (maskd--restart)))
    (quit nil)
    (error
     (setq maskd--last-error err)
     (message "[maskd] %s" (error-message-string err)))))

(defun maskd--flush-later ()
  "Send what was changed outside a command (by a timer, a filter, Lisp)."
  (setq maskd--flush-timer nil)
  (maskd--send-all nil))

;;;; Applying the daemon's formatting

(defun maskd--apply-edits (edits)
  "Apply EDITS, a sequence of LSP TextEdits against the current text.
They are applied from the last to the first, so each one's range is
still right when it is applied; in `maskd-mode' they then go to the
daemon as they are, in that order, one change each of one didChange:
its echo.  Converting and recording them costs the distance between
them, not each one's distance from the buffer's start."
  (let ((edits (sort (mapcar (lambda (e)
                               (let ((range (plist-get e :range)))
                                 (list (maskd--point (plist-get range :start))
                                       (maskd--point (plist-get range :end))
                                       (plist-get e :newText)
                                       range)))
                             edits)
                     (lambda (a b) (> (car a) (car b)))))
        (maskd--applying t))
    (save-excursion
      (save-restriction
        (widen)
        (pcase-dolist (`(,beg ,end ,text) edits)
          (cond
           ((= beg end) (goto-char beg) (insert text))
           ((string-empty-p text) (delete-region beg end))
           (t
            ;; One change for a replacement, not a deletion and an insertion.
            (save-match-data
              (set-match-data (list beg end))
              (replace-match text t t)))))))
    (when (and maskd--opened edits)
      (pcase-dolist (`(,_beg ,_end ,text ,range) edits)
        (push (vector (plist-get range :start) (plist-get range :end) text nil nil)
              maskd--changes))
      (maskd--flush t))))

(defun maskd--join-undo ()
  "Remove the undo boundary after the person's change, if there is one.
Return non-nil if one was removed.  The daemon's edits then join the
person's change in one undo step."
  (when (and (consp buffer-undo-list)
             maskd--undo-mark
             (null (car buffer-undo-list))
             (eq (cdr buffer-undo-list) maskd--undo-mark))
    (setq buffer-undo-list (cdr buffer-undo-list))
    t))

(defun maskd--goto (position)
  "Move point to LSP POSITION in the current buffer and its window."
  (let ((pos (maskd--point position)))
    (goto-char pos)
    (let ((window (get-buffer-window (current-buffer))))
      (when window
        (set-window-point window pos)))))

(defun maskd--on-did-format (params)
  "Apply `maskd/didFormat' PARAMS to its buffer, unless it is stale."
  (let* ((doc (plist-get params :textDocument))
         (buffer (gethash (plist-get doc :uri) maskd--buffers))
         (version (plist-get doc :version)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (setq maskd--formatted (max maskd--formatted version))
        (maskd--forget-closed (plist-get params :closed))
        (cond
         ;; A didFormat without a cursor answers no change (rules opened
         ;; fields): it may come at a version of maskd's own edits.
         ((and (memql version maskd--own) (plist-get params :cursor))
          (maskd--count :echo))
         ((or (/= version maskd--version) maskd--changes maskd--full-sync)
          (maskd--count :stale))
         ((and (memql version maskd--undone) (plist-get params :cursor))
          (maskd--skip-undone params))
         (t
          (setq maskd--undone nil)
          (maskd--count :applied)
          (setq maskd--own (seq-filter (lambda (v) (>= v version)) maskd--own))
          (let* ((edits (plist-get params :edits))
                 (joined (and (> (length edits) 0) (maskd--join-undo))))
            (maskd--apply-edits edits)
            (when joined
              (undo-boundary))
            (maskd--place-point params edits))
          (maskd--update-fields (plist-get params :fields))
          (run-hook-with-args 'maskd-format-functions params)))))))

(defun maskd--forget-closed (ids)
  "Forget the fields whose ids are in the sequence IDS and stop drawing them.
IDS is a didFormat's `closed': the daemon closed those fields when the
change reached it (their line killed, replaced or joined away), so they
are forgotten whatever becomes of the rest of the notification."
  (seq-doseq (id (or ids []))
    (when (stringp id)
      (maskd--remove-field id))))

(defun maskd--holds-cursor-p (params edits)
  "Return non-nil if point is to move to the cursor of didFormat PARAMS.
EDITS are the edits of PARAMS, applied.  With edits it is; without,
only when the cursor lies in one of the fields PARAMS lists: the
engine's caret in the field typed in.  Elsewhere the change reached
beyond its fields (a killed, replaced or joined line), and point stays
where the person's command left it."
  (let ((cursor (plist-get params :cursor)))
    (and cursor
         (or (> (length edits) 0)
             (seq-some (lambda (state)
                         (let* ((range (plist-get state :range))
                                (start (plist-get range :start))
                                (end (plist-get range :end)))
                           (and start end
                                (eql (plist-get start :line) (plist-get cursor :line))
                                (eql (plist-get end :line) (plist-get cursor :line))
                                (<= (plist-get start :character)
                                    (plist-get cursor :character)
                                    (plist-get end :character)))))
                       (or (plist-get params :fields) []))))))

(defun maskd--place-point (params edits)
  "Move point to the cursor of didFormat PARAMS, whose EDITS are applied.
See `maskd--holds-cursor-p'.  Without a cursor, rules opened fields:
their formatting is an undo step that closes them."
  (cond
   ((not (plist-get params :cursor))
    (maskd-push-undo-rule-open params))
   ((maskd--holds-cursor-p params edits)
    (maskd--goto (plist-get params :cursor)))))

(defun maskd--skip-undone (params)
  "Leave the text an undo or a redo gave back as it is.
PARAMS is the `maskd/didFormat' answering it.  Applying its edits
would make the undo give back other text than the person had, and in
editors with an undo tree start a new branch that loses the redo.
The daemon's copy is still the buffer's (its edits enter it only with
their echo); the fields' states are kept when nothing was to change."
  (maskd--count :undo)
  (when (zerop (length (plist-get params :edits)))
    (maskd--update-fields (plist-get params :fields))))

(defun maskd-push-undo-rule-open (params &optional close open)
  "Make an undo of the formatting rules opened fields with close them.
PARAMS is a `maskd/didFormat' without a cursor, whose edits were
just applied: rules opened its new fields as the file opened or the
rules changed.  That undo is one step of its own; it closes them (so
their lines open no field again) and gives the text back.  CLOSE
and OPEN are the driver's, as for `maskd--push-undo-open'."
  (when (> (length (plist-get params :edits)) 0)
    (seq-doseq (state (plist-get params :fields))
      (when (and (plist-get state :rule)
                 (not (assoc (plist-get state :field) maskd--fields)))
        (maskd--push-undo-open (plist-get state :field) close open)))
    (undo-boundary)))

;;;; Fields

(defun maskd--placeholder (state)
  "Return the after-string showing the placeholder of field STATE, or nil."
  (let ((placeholder (plist-get state :placeholder)))
    (when (and maskd-show-placeholder (stringp placeholder)
               (not (string-empty-p placeholder)))
      (let ((s (propertize placeholder 'face 'maskd-placeholder)))
        ;; Show the cursor on the first character still to fill.
        (put-text-property 0 1 'cursor t s)
        s))))

(defmacro maskd--reporting (&rest body)
  "Run BODY, reporting a `maskd-error' as a message."
  (declare (indent 0) (debug t))
  `(condition-case err
       (progn ,@body)
     (maskd-error (user-error "[maskd] %s" (cadr err)))))

(defun maskd--set-field (state &optional mask)
  "Record field STATE (a FieldState plist) and show its placeholder.
MASK, when given, is the MaskSpec the field was opened with, kept to
open it again with a new daemon."
  (let* ((id (plist-get state :field))
         (range (plist-get state :range))
         (beg (maskd--point (plist-get range :start)))
         (end (maskd--point (plist-get range :end)))
         (field (assoc id maskd--fields)))
    (if field
        (progn
          (setf (nth 1 field) state)
          (move-overlay (nth 2 field) beg end))
      (let ((ov (make-overlay beg end nil nil t)))
        (overlay-put ov 'maskd-field id)
        (setq field (list id state ov))
        (push field maskd--fields)))
    (when mask
      (overlay-put (nth 2 field) 'maskd-mask mask))
    (overlay-put (nth 2 field) 'after-string (maskd--placeholder state))))

(defun maskd--update-fields (states)
  "Record every FieldState in the sequence STATES."
  (seq-doseq (state (or states []))
    (when (plist-get state :field)
      (maskd--set-field state))))

(defun maskd--remove-field (id)
  "Forget field ID and delete its overlay."
  (let ((field (assoc id maskd--fields)))
    (when field
      (delete-overlay (nth 2 field))
      (setq maskd--fields (delq field maskd--fields)))))

(defun maskd--clear-fields ()
  "Forget every field of the current buffer."
  (dolist (field maskd--fields)
    (delete-overlay (nth 2 field)))
  (setq maskd--fields nil))

(defun maskd--field-at (pos)
  "Return the field (ID STATE OVERLAY) containing or touching POS, or nil."
  (seq-find (lambda (f)
              (let ((ov (nth 2 f)))
                (and (overlay-start ov)
                     (<= (overlay-start ov) pos (overlay-end ov)))))
            maskd--fields))

(defun maskd-field-state (&optional id)
  "Return the last known state of field ID, or of the field at point.
The field at point is the one containing point or touching it.  The
state is a plist with `:field', `:range', `:text', `:value',
`:complete', `:valid', `:problems', `:next', `:placeholder', `:mask'
and, for card masks, `:brand'.  No request is made."
  (nth 1 (if id (assoc id maskd--fields) (maskd--field-at (point)))))

(defun maskd-describe (state)
  "Return a one-line description of field STATE."
  (let ((value (plist-get state :value))
        (brand (plist-get state :brand))
        (problems (append (plist-get state :problems) nil))
        (next (plist-get state :next)))
    (concat (if (stringp brand) (concat brand " ") "")
            (if (and (stringp value) (not (string-empty-p value)))
                value
              "(empty)")
            " ["
            (maskd--state-word state)
            (cond
             ((eq (plist-get state :valid) t) "")
             ((eq (plist-get state :complete) t)
              (if problems (concat ": " (string-join problems ", ")) ""))
             (t (if (stringp next) (concat ", next " next) "")))
            "]")))

(defun maskd--state-word (state)
  "Return valid, invalid or incomplete for field STATE."
  (cond ((eq (plist-get state :valid) t) "valid")
        ((eq (plist-get state :complete) t) "invalid")
        (t "incomplete")))

(defun maskd--daemon-presets ()
  "Return the daemon's preset names, starting the daemon if needed."
  (maskd--connection)
  (maskd-preset-names))

(defun maskd--resolve-mask (name &optional daemon-presets)
  "Return the MaskSpec that NAME stands for.
NAME is one of `maskd-presets', a JSON object (when it starts with {),
`phone' and a region code (`phone GB', the phone preset for that
region's national numbers), `postal' and one (`postal GB', that region's
postal codes), the name of a preset of the daemon when it
is a bare word (letters, digits, dots, dashes, underscores), or else a
mask in bracket notation.
DAEMON-PRESETS is a function returning the daemon's preset names
\(default: those of `maskd-mode''s daemon).  An unknown preset name is
a `user-error' listing the presets."
  (let* ((name (string-trim name))
         ;; `phone GB', `postal GB': the preset and the region, read before
         ;; anything else matches a string.
         (regional (and (string-match "\\`\\(phone\\|postal\\)[ \t]+\\([[:alpha:]][[:alpha:]]\\)\\'" name)
                        (cons (match-string 1 name) (upcase (match-string 2 name))))))
    (cond
     ((assoc name maskd-presets) (cdr (assoc name maskd-presets)))
     ((string-prefix-p "{" name)
      (condition-case nil
          (json-parse-string name :object-type 'plist
                             :null-object nil :false-object :json-false)
        (json-parse-error (user-error "[maskd] not a JSON object: %s" name))))
     ;; `phone GB': the phone preset for a region's national numbers;
     ;; `postal GB': its postal codes.
     ((and regional
           (member (car regional)
                   (funcall (or daemon-presets #'maskd--daemon-presets))))
      (list :preset (car regional) :region (cdr regional)))
     ((not (string-match-p "\\`[[:alnum:]._-]+\\'" name)) name)
     (t
      (let ((names (funcall (or daemon-presets #'maskd--daemon-presets))))
        (if (member name names)
            (list :preset name)
          ;; Through %s: `user-error' would curve the quotes of its format.
          (user-error "%s" (format "[maskd] unknown preset '%s'; the presets are %s"
                                   name
                                   (string-join
                                    (seq-uniq (append (mapcar #'car maskd-presets)
                                                      names))
                                    ", ")))))))))

(defun maskd--read-mask (prompt)
  "Read a mask with PROMPT, offering the preset names (and region codes)."
  (maskd--reporting (maskd--connection))
  (maskd--resolve-mask (maskd--completing-read-mask
   prompt (maskd--mask-table (maskd-preset-names) #'maskd-preset-regions))))

(defun maskd--completing-read-mask (prompt collection)
  "Read a mask's text with PROMPT, completing from COLLECTION.
COLLECTION is the preset names, and after `phone ' or `postal ' the
region codes (see `maskd--mask-table').  SPC inserts a space, as a
preset's region needs (`phone GB'), rather than completing a word."
  (let ((minibuffer-local-completion-map
         (let ((map (make-sparse-keymap)))
           (set-keymap-parent map minibuffer-local-completion-map)
           (define-key map " " #'self-insert-command)
           map)))
    (completing-read prompt collection nil nil nil 'maskd--mask-history)))

(defvar maskd--mask-history nil
  "Masks given to `maskd-field' and `maskd-set-mask'.")

(defun maskd--apply-result (result &optional mask)
  "Apply an openField or setMask RESULT: its edits, cursor and state.
MASK is the MaskSpec the field was opened with."
  (when result
    (when (eql (plist-get result :version) maskd--version)
      (maskd--apply-edits (plist-get result :edits))
      (when (plist-get result :cursor)
        (maskd--goto (plist-get result :cursor))))
    (when (plist-get result :state)
      (maskd--set-field (plist-get result :state) mask))))

(defun maskd--error-message (error)
  "Return the message of ERROR, a JSON-RPC error object (a plist)."
  (or (plist-get error :message) (format "error %s" (plist-get error :code))))

(defun maskd-apply-open-results (results masks apply-edits &optional undo)
  "Take RESULTS, the `maskd/openFields' results, into the current buffer.
MASKS are the MaskSpecs of the entries, in order.  APPLY-EDITS is
called with the edits of every opened field, a list: the driver
applies them when the buffer is still at the results' version.  With
UNDO, a list (CLOSE OPEN) of the driver's functions, an undo of the
open closes each field (see `maskd--push-undo-open').  Point stays
with the text around it.  Return the list of errors (plists with
`:code' and `:message'), in order."
  (let ((edits nil)
        (errors nil))
    (seq-doseq (result results)
      (if (plist-get result :error)
          (push (plist-get result :error) errors)
        (seq-doseq (edit (plist-get result :edits))
          (push edit edits))))
    (funcall apply-edits edits)
    (cl-loop for result across results
             for mask in masks
             unless (plist-get result :error)
             do (maskd--set-field (plist-get result :state) mask)
             (when undo
               (apply #'maskd--push-undo-open (plist-get result :field) undo)))
    (nreverse errors)))

(defun maskd-request-open-fields (entries request document)
  "Send ENTRIES (plists of `:range', `:mask', `:field', `:force') at once.
REQUEST is the driver's function of a method and params; DOCUMENT the
buffer's TextDocumentIdentifier.  Return the daemon's answer, a plist
with `:results' (a vector) and `:version'.  A daemon without
`maskd/openFields' gets one openField each, and the answer has the
same form."
  (condition-case err
      (funcall request :maskd/openFields
               (list :textDocument document :fields (vconcat entries)))
    (maskd-error
     (unless (eql (nth 2 err) -32601)
       (signal (car err) (cdr err)))
     (let ((results
            (mapcar (lambda (entry)
                      (condition-case e
                          (funcall request :maskd/openField
                                   (append (list :textDocument document) entry))
                        (maskd-error
                         (list :error (list :message (cadr e) :code (nth 2 e))))))
                    entries)))
       (list :results (vconcat results)
             :version (seq-some (lambda (r) (plist-get r :version)) results))))))

(defun maskd-reopen-fields (request document apply-edits)
  "Open the current buffer's fields again, with a new daemon.
They keep their masks and current ranges, and their ids where the
new daemon's rules have not taken them, and what was typed in them
meanwhile is brought into form.  The fields rules opened are left to
the new daemon's rules.  REQUEST and APPLY-EDITS are the driver's, as
for `maskd-request-open-fields' and `maskd-apply-open-results';
DOCUMENT a function returning the buffer's current document
identifier.  Return how many fields were opened."
  (let* ((fields (seq-filter (lambda (f)
                               (and (overlay-start (nth 2 f))
                                    (not (plist-get (nth 1 f) :rule))))
                             maskd--fields))
         (masks (mapcar (lambda (f) (overlay-get (nth 2 f) 'maskd-mask))
                        fields))
         (entries (lambda (fields ids)
                    (mapcar
                     (lambda (f)
                       (let ((ov (nth 2 f)))
                         ;; It was a field: what the person typed into it
                         ;; meanwhile is theirs, as if typed into it.
                         (append (list :range (maskd--range (overlay-start ov)
                                                            (overlay-end ov))
                                       :mask (overlay-get ov 'maskd-mask) :force t)
                                 (and ids (list :field (car f))))))
                     fields))))
    ;; The new daemon's rules open their fields as the document opens, and
    ;; their `didFormat' may come while the request waits, with ids these
    ;; fields had: they leave the list now (their overlays still follow
    ;; the text), and the answers' states take their place.
    (dolist (f maskd--fields)
      (unless (memq f fields)
        (delete-overlay (nth 2 f))))
    (setq maskd--fields nil)
    (unwind-protect
        (if (null fields)
            0
          (let* ((results (plist-get (maskd-request-open-fields
                                      (funcall entries fields t) request
                                      (funcall document))
                                     :results))
                 (taken (cl-loop for result across results
                                 for f in fields
                                 when (plist-get result :error) collect f)))
            ;; An id a rule's field took: the same field again, under a new id.
            (when taken
              (let ((again (append (plist-get (maskd-request-open-fields
                                               (funcall entries taken nil) request
                                               (funcall document))
                                              :results)
                                   nil)))
                (setq results (vconcat (cl-loop for result across results
                                                collect (if (plist-get result :error)
                                                            (pop again)
                                                          result))))))
            (maskd-apply-open-results results masks apply-edits)
            (seq-count (lambda (r) (not (plist-get r :error))) results)))
      (dolist (f fields)
        (delete-overlay (nth 2 f))))))

(defun maskd--edits-applier (version)
  "Return a function applying edits to the current buffer while at VERSION."
  (lambda (edits)
    (when (eql version maskd--version)
      (maskd--apply-edits edits))))

(defun maskd--reopen ()
  "Open the current buffer and its fields with a new daemon.
Return how many fields were opened again."
  (maskd--open-document)
  (maskd-reopen-fields #'maskd--request #'maskd--document
                       (maskd--edits-applier maskd--version)))

(defun maskd--push-undo-open (id &optional close open)
  "Make an undo of the open of field ID close it, and the text go back.
CLOSE and OPEN are the driver's functions closing a field (of its id)
and opening one (of a mask, a range and an id)."
  (when (listp buffer-undo-list)
    (push (list 'apply #'maskd--undo-open id
                (or close #'maskd-close-field) (or open #'maskd-open-field))
          buffer-undo-list)))

(defun maskd--undo-open (id close open)
  "Undo the open of field ID: CLOSE it, so the text it had comes back.
The undo entries after this one give the text back; a redo calls
OPEN to open the field again over the same range."
  (let ((field (assoc id maskd--fields)))
    (when field
      (let* ((ov (nth 2 field))
             (beg (overlay-start ov))
             (end (overlay-end ov))
             (mask (overlay-get ov 'maskd-mask)))
        (condition-case nil
            (funcall close id)
          (error (maskd--remove-field id)))
        (when (and beg mask (listp buffer-undo-list))
          (push (list 'apply #'maskd--redo-open open mask beg end id)
                buffer-undo-list))))))

(defun maskd--redo-open (open mask beg end id)
  "Redo the open of field ID: OPEN it with MASK over BEG..END."
  (maskd--reporting (funcall open mask beg end id)))

(defun maskd-open-field (mask beg end &optional id force)
  "Open a field with MASK over BEG..END of the current buffer.
With END nil the daemon chooses the field around BEG (`maskd/openField'
with `at'): the word that ends at BEG or holds the character before
it, widened to the words around it that MASK reads whole, or an empty
field at BEG after a blank.
MASK is a MaskSpec as the daemon takes it: a string in bracket
notation or a plist or hash table standing for a JSON object.  ID
names the field (the daemon picks one when it is nil).  The text is
brought into form and point moves to the field's end when it changed.
An undo of the open closes the field and gives the text back.
Return the daemon's result, a plist; signal `maskd-error' on failure,
such as the daemon's refusal to drop letters or digits (-32803),
unless FORCE is non-nil."
  (unless maskd-mode
    (maskd-mode 1))
  (maskd--ensure-open)
  (let ((result (maskd--request
                 :maskd/openField
                 (append (list :textDocument (maskd--document))
                         (maskd--where beg end)
                         (list :mask mask)
                         (and id (list :field id))
                         (and force (list :force t))))))
    (maskd--apply-result result mask)
    (maskd--push-undo-open (plist-get result :field))
    result))

(defun maskd--where (beg end)
  "Return the params saying where `maskd/openField' opens: BEG..END.
With END nil, `:at' BEG, where the daemon chooses the range."
  (if end
      (list :range (maskd--range beg end))
    (list :at (maskd--position beg))))

(defun maskd-open-fields (mask ranges &optional force)
  "Open a field with MASK over each of RANGES, a list of (BEG . END).
A range over several lines opens a field on each of its lines, over
the line's part without the blanks around it (the daemon splits it;
lines with nothing else get none).
They go to the daemon in one `maskd/openFields', with FORCE as for
`maskd-open-field'.  Return the list of errors of the ranges that were
not opened (plists with `:code' and `:message'); signal `maskd-error'
when the request itself fails."
  (unless maskd-mode
    (maskd-mode 1))
  (maskd--ensure-open)
  (let ((answer (maskd-request-open-fields
                 (maskd-line-entries mask ranges force) #'maskd--request
                 (maskd--document))))
    (maskd-apply-open-results (plist-get answer :results)
                              (make-list (length (plist-get answer :results)) mask)
                              (maskd--edits-applier (plist-get answer :version))
                              (list #'maskd-close-field #'maskd-open-field))))

(defun maskd-line-entries (mask ranges &optional force)
  "Return the `maskd/openFields' entries opening MASK over RANGES, with FORCE."
  (mapcar (lambda (r) (append (list :range (maskd--range (car r) (cdr r)) :mask mask)
                              (and force (list :force t))))
          ranges))

(defun maskd-report-open-errors (count errors)
  "Say in one line how opening COUNT fields went, given their ERRORS."
  (if (null errors)
      (message "[maskd] opened %d fields" count)
    (message "[maskd] opened %d of %d fields; %d refused, the first: %s"
             (- count (length errors)) count (length errors)
             (maskd--error-message (car errors)))))

;;;###autoload
(defun maskd-field (mask &optional beg end force)
  "Format the text from BEG to END as a field with MASK, as you type.
Interactively, the field is the region when it is active, otherwise
the non-blank text around point widened to the words next to it that
MASK reads whole (so `+1 (555) 123-4567' is taken whole), or an empty
field at point after a blank.  A region over several lines opens one
field per line.  MASK is read with completion of the preset names; it
may also be a mask in bracket notation or a JSON object.  From Lisp,
MASK is a preset name or mask string (resolved as when read) or a
plist, and BEG nil means the word at point.  The daemon refuses to
open a field that would drop letters or digits of the text (a label,
say), and says what they are; with a prefix argument, or FORCE from
Lisp, it opens anyway."
  (interactive
   (list (maskd--read-mask "Field mask: ")
         (and (use-region-p) (region-beginning))
         (and (use-region-p) (region-end))
         current-prefix-arg))
  (maskd--reporting
    (let ((mask (if (stringp mask) (maskd--resolve-mask mask) mask)))
      (when (use-region-p)
        (deactivate-mark))
      (if (and beg (> (count-lines beg (or end beg)) 1))
          (let* ((before (length maskd--fields))
                 (errors (maskd-open-fields mask (list (cons beg end)) force)))
            (maskd-report-open-errors
             (+ (- (length maskd--fields) before) (length errors)) errors)
            errors)
        ;; Without a region the daemon chooses the field around point.
        (let ((result (maskd-open-field mask (or beg (point)) (and beg (or end beg))
                                        nil force)))
          (when (called-interactively-p 'interactive)
            (message "[maskd] field %s  %s" (plist-get result :field)
                     (maskd-describe (plist-get result :state))))
          result)))))

(defun maskd--field-at-point ()
  "Return the daemon's FieldState of the field at point, or nil.
That is the field containing point or touching it."
  (unless maskd-mode
    (user-error "[maskd] `maskd-mode' is off in this buffer"))
  (maskd--ensure-open)
  (maskd--request :maskd/formatHints
                  (list :textDocument (maskd--document)
                        :position (maskd--position (point)))))

(defun maskd-set-field-mask (field mask &optional force)
  "Change the mask of FIELD (its id) to MASK, as the daemon takes it.
MASK is sent as is, as for `maskd-open-field'.  The entered
characters re-flow; point keeps its count of entered characters to
its left.  A mask that would cut letters or digits is refused unless
FORCE is non-nil.  Return the daemon's result; signal `maskd-error'
on failure."
  (maskd--ensure-open)
  (let ((result (maskd--request
                 :maskd/setMask
                 (append (list :textDocument (maskd--document)
                               :field field
                               :mask mask
                               :position (maskd--position (point)))
                         (and force (list :force t))))))
    (maskd--apply-result result mask)
    result))

;;;###autoload
(defun maskd-set-mask (mask)
  "Change the mask of the field at point to MASK.
The characters entered so far re-flow into the new mask, and point
keeps its count of entered characters to its left.  MASK is as for
`maskd-field'."
  (interactive (list (maskd--read-mask "New mask: ")))
  (maskd--reporting
    (let ((state (maskd--field-at-point))
          (mask (if (stringp mask) (maskd--resolve-mask mask) mask)))
      (unless state
        (user-error "[maskd] no field at point"))
      (maskd-set-field-mask (plist-get state :field) mask))))

(defun maskd-close-field (field)
  "Stop formatting FIELD (its id); its text stays as it is.
A number mask with `padFraction' gets its fraction filled with zeros
\(12.5 becomes 12.50): the daemon sends them before its answer, as a
`maskd/didFormat' applied as any other, point carried through them."
  (maskd--ensure-open)
  (maskd--request :maskd/closeField
                  (list :textDocument (maskd--document) :field field
                        :position (maskd--position (point))))
  (maskd--remove-field field))

;;;###autoload
(defun maskd-close ()
  "Stop formatting the field at point; its text stays as it is."
  (interactive)
  (maskd--reporting
    (let ((state (maskd--field-at-point)))
      (unless state
        (user-error "[maskd] no field at point"))
      (maskd-close-field (plist-get state :field))
      (when (called-interactively-p 'interactive)
        (message "[maskd] closed field %s" (plist-get state :field)))
      (plist-get state :field))))

(defun maskd-info-line (state)
  "Return the text of the `maskd-info' message for field STATE."
  (let ((placeholder (plist-get state :placeholder)))
    (format "[maskd] %s: %s  mask %s%s"
            (plist-get state :field)
            (maskd-describe state)
            (plist-get state :mask)
            (if (and (stringp placeholder)
                     (not (string-empty-p placeholder)))
                (format "  to fill %s" placeholder)
              ""))))

;;;###autoload
(defun maskd-info ()
  "Show the state of the field at point and return it."
  (interactive)
  (maskd--reporting
    (let ((state (maskd--field-at-point)))
      (if (not state)
          (message "[maskd] no field at point")
        (maskd--set-field state)
        (message "%s" (maskd-info-line state)))
      state)))

(defun maskd-list-fields-of (states buffer)
  "Show STATES, the fields of BUFFER, in the buffer `*maskd fields*'.
Each line is a field: its line and column, id, state and text; RET
or a click on it goes to the field."
  (with-current-buffer (get-buffer-create "*maskd fields*")
    (let ((inhibit-read-only t))
      (erase-buffer)
      (maskd-fields-mode)
      (insert (format "Fields of %s: %d\n" (buffer-name buffer) (length states)))
      (seq-doseq (state states)
        (let* ((start (plist-get (plist-get state :range) :start))
               (pos (with-current-buffer buffer (maskd--point start))))
          (insert-text-button
           (format "%d:%d" (1+ (plist-get start :line)) (plist-get start :character))
           'action (lambda (_) (pop-to-buffer buffer) (goto-char pos))
           'follow-link t)
          (insert (format "  %s  %-10s %s\n" (plist-get state :field)
                          (maskd--state-word state) (plist-get state :text)))))
      (goto-char (point-min))
      (forward-line 1))
    (display-buffer (current-buffer))
    (current-buffer)))

(define-derived-mode maskd-fields-mode special-mode "maskd fields"
  "The list of a buffer's fields, made by `maskd-list-fields'.")

;;;###autoload
(defun maskd-list-fields ()
  "List the fields of the current buffer, with their states.
Return the FieldStates, in document order."
  (interactive)
  (maskd--reporting
    (unless maskd-mode
      (user-error "[maskd] `maskd-mode' is off in this buffer"))
    (maskd--ensure-open)
    (let ((states (maskd--request :maskd/fields
                                  (list :textDocument (maskd--document)))))
      (maskd--update-fields states)
      (maskd-list-fields-of states (current-buffer))
      states)))

;;;; Rules and workspace folders

(defun maskd-workspace-root ()
  "Return the current buffer's workspace folder, a true name with a slash.
That is its project's root (project.el), else the nearest directory
above it with a `.maskd.json', else `default-directory'."
  (file-name-as-directory
   (file-truename
    (or (let ((project (project-current)))
          (and project (project-root project)))
        (locate-dominating-file default-directory maskd-rules-file-name)
        default-directory))))

(defun maskd--folder (root)
  "Return the LSP WorkspaceFolder of directory ROOT."
  (list :uri (maskd--file-uri root)
        :name (file-name-nondirectory (directory-file-name root))))

(defun maskd--add-folder (conn root)
  "Tell the daemon of CONN about workspace folder ROOT, unless it knows it.
It reads the folder's `.maskd.json' before the documents sent after."
  (unless (member root maskd--folders)
    (push root maskd--folders)
    (jsonrpc-notify conn :workspace/didChangeWorkspaceFolders
                    (list :event (list :added (vector (maskd--folder root))
                                       :removed [])))))

(defun maskd--rules-vector ()
  "Return `maskd-rules' as the daemon takes them: a vector of objects.
A list of languageIds becomes an array; a rule that is no JSON at all
is sent as its printed form, so the daemon's message names its index."
  (vconcat
   (mapcar (lambda (rule)
             (let ((languages (and (consp rule) (plist-get rule :languages))))
               (when (consp languages)
                 (setq rule (plist-put (copy-sequence rule) :languages
                                       (vconcat languages)))))
             (condition-case nil
                 (and (json-serialize rule :null-object nil
                                      :false-object :json-false)
                      rule)
               (error (format "%S" rule))))
           (if (listp maskd-rules) maskd-rules (list maskd-rules)))))

(defvar maskd-rules-functions nil
  "Functions called with the new rules (a vector) when `maskd-rules' is set.
maskd-eglot gives them to its servers.")

(defun maskd-rules-settings (rules)
  "Return the `workspace/didChangeConfiguration' params giving RULES."
  (list :settings (list :maskd (list :rules rules))))

(defun maskd--rules-changed ()
  "Give a running daemon the new `maskd-rules'; attach the files they reach."
  (let ((rules (maskd--rules-vector)))
    (when (maskd--running-p)
      (jsonrpc-notify maskd--connection :workspace/didChangeConfiguration
                      (maskd-rules-settings rules)))
    (run-hook-with-args 'maskd-rules-functions rules))
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (maskd-rules-attach))))

(defconst maskd-language-ids
  '((fundamental-mode . "plaintext") (text-mode . "plaintext")
    (sh-mode . "shellscript") (bash-ts-mode . "shellscript")
    (js-mode . "javascript") (js-json-mode . "json") (json-ts-mode . "json")
    (conf-javaprop-mode . "properties") (emacs-lisp-mode . "elisp")
    (yaml-ts-mode . "yaml"))
  "The languageIds of major modes whose name is not their languageId.")

(defun maskd-language-id ()
  "Return the languageId of the current buffer, which rules' `:languages' name.
That of `maskd-language-ids', else the major mode's name without
`-mode' (`yaml-mode': yaml, `markdown-mode': markdown)."
  (or (cdr (assq major-mode maskd-language-ids))
      (string-remove-suffix "-mode" (symbol-name major-mode))))

(defun maskd-rules-may-apply-p ()
  "Return non-nil when field rules may apply to the current buffer.
That is when `maskd-rules' is non-nil or its workspace folder has a
`.maskd.json'; which rules match is the daemon's to decide."
  (or maskd-rules
      (file-exists-p (expand-file-name maskd-rules-file-name
                                       (maskd-workspace-root)))))

(defvar maskd--attach-failed nil
  "Non-nil once attaching a file by its rules failed (it is said once).")

;;;###autoload
(defun maskd-rules-attach ()
  "Turn on `maskd-mode' in a file's buffer when field rules may apply to it.
On `find-file-hook', unless `maskd-attach-by-rules' is nil.  When
the daemon cannot start, one message says so for the session."
  (when (and maskd-attach-by-rules buffer-file-name (not maskd-mode)
             (not (file-remote-p buffer-file-name))
             (not (bound-and-true-p eglot--managed-mode))
             (maskd-rules-may-apply-p))
    (condition-case err
        (maskd-mode 1)
      (error
       (unless maskd--attach-failed
         (setq maskd--attach-failed t)
         (message "[maskd] field rules apply to %s, but %s"
                  (file-name-nondirectory buffer-file-name)
                  (if (eq (car err) 'maskd-error)
                      (cadr err)
                    (error-message-string err))))))))

;; In the autoloads too: files attach by their rules before maskd is loaded.
;;;###autoload
(add-hook 'find-file-hook #'maskd-rules-attach)

(defun maskd-rules-file-saved ()
  "Tell the daemon a `.maskd.json' saved in Emacs changed; attach what it reaches.
On `after-save-hook'.  The daemon reads it again when its directory
is a workspace folder it knows (a file there starts it otherwise,
with that folder), and the open files' lines are tried again."
  (when (and buffer-file-name
             (equal (file-name-nondirectory buffer-file-name) maskd-rules-file-name))
    (let ((file (file-truename buffer-file-name)))
      (when (and (maskd--running-p)
                 (member (file-name-directory file) maskd--folders))
        (jsonrpc-notify maskd--connection :workspace/didChangeWatchedFiles
                        (list :changes (vector (list :uri (maskd--file-uri file)
                                                     :type 2)))))
      (dolist (buffer (buffer-list))
        (with-current-buffer buffer
          (maskd-rules-attach))))))

(add-hook 'after-save-hook #'maskd-rules-file-saved)

;;;; The minor mode

(defun maskd--close-document ()
  "Tell the daemon the current buffer is gone, and forget its state."
  (when (and maskd--opened (maskd--running-p))
    (ignore-errors
      (jsonrpc-notify maskd--connection :textDocument/didClose
                      (list :textDocument (list :uri maskd--uri)))))
  (maskd--clear-fields)
  (setq maskd--opened nil
        maskd--changes nil
        maskd--dirty (delq (current-buffer) maskd--dirty))
  (when maskd--uri
    (remhash maskd--uri maskd--buffers)))

(defun maskd--after-revert ()
  "Send the whole text after the buffer was reverted."
  (setq maskd--full-sync t)
  (maskd--flush))

(defun maskd--mode-off ()
  "Turn `maskd-mode' off."
  (maskd-mode -1))

(defvar maskd-mode-map
  (let ((map (make-sparse-keymap))
        (prefix (make-sparse-keymap)))
    (define-key prefix "f" #'maskd-field)
    (define-key prefix "m" #'maskd-set-mask)
    (define-key prefix "c" #'maskd-close)
    (define-key prefix "i" #'maskd-info)
    (define-key prefix "l" #'maskd-list-fields)
    ;; C-c followed by punctuation is for minor modes.
    (define-key map (kbd "C-c ,") prefix)
    map)
  "Keys of `maskd-mode'.
\<maskd-mode-map>\[maskd-field] opens a field, \[maskd-set-mask] sets its mask,
\[maskd-close] closes it, \[maskd-info] describes it,
\[maskd-list-fields] lists them.")

(defun maskd-mode-line ()
  "Return the mode line text of `maskd-mode': the state of the field at point."
  (let ((state (maskd-field-state)))
    (if state
        (format " maskd[%s]" (maskd--state-word state))
      " maskd")))

;;;###autoload
(define-minor-mode maskd-mode
  "Format fields as you type, with the maskd daemon.
Keeps the daemon's copy of the buffer up to date and applies its
formatting; `maskd-field' opens a field (and turns this mode on).
The mode line shows the state of the field at point.

\{maskd-mode-map}"
  :lighter (:eval (maskd-mode-line))
  :keymap maskd-mode-map
  :group 'maskd
  (cond
   (maskd-mode
    (setq maskd--uri (maskd--make-uri))
    (puthash maskd--uri (current-buffer) maskd--buffers)
    (condition-case err
        (maskd--open-document)
      (error
       (maskd-mode -1)
       (signal (car err) (cdr err))))
    (add-hook 'before-change-functions #'maskd--before-change nil t)
    (add-hook 'after-change-functions #'maskd--after-change nil t)
    (add-hook 'kill-buffer-hook #'maskd--close-document nil t)
    (add-hook 'change-major-mode-hook #'maskd--mode-off nil t)
    (add-hook 'after-revert-hook #'maskd--after-revert nil t)
    (add-hook 'post-command-hook #'maskd--post-command))
   (t
    (remove-hook 'before-change-functions #'maskd--before-change t)
    (remove-hook 'after-change-functions #'maskd--after-change t)
    (remove-hook 'kill-buffer-hook #'maskd--close-document t)
    (remove-hook 'change-major-mode-hook #'maskd--mode-off t)
    (remove-hook 'after-revert-hook #'maskd--after-revert t)
    (maskd--close-document))))

(provide 'maskd)
;;; maskd.el ends here
