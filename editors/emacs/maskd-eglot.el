;;; maskd-eglot.el --- maskd fields through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; URL: https://github.com/maskd/maskd
;; Keywords: convenience, tools
;; Package-Requires: ((emacs "28.1") (eglot "1.9") (maskd "0.1.0"))

;; This file is not part of GNU Emacs.

;;; Commentary:

;; Use maskd through eglot instead of `maskd-mode': eglot starts the
;; daemon and keeps its copy of the buffer up to date, and this file
;; handles the daemon's `maskd/didFormat' notification and offers
;; `maskd-eglot-field', `maskd-eglot-set-mask', `maskd-eglot-close' and
;; `maskd-eglot-info'.
;;
;;   (require 'maskd-eglot)
;;   (add-to-list 'eglot-server-programs '(text-mode . ("maskd")))
;;
;; then M-x eglot in a text file, and M-x maskd-eglot-field RET
;; phone.us RET.  Eglot sends its changes from an idle timer; with
;; `maskd-eglot-send-changes-immediately' (the default) a buffer with
;; fields sends them at the end of every command and waits for the
;; formatting, so the next key acts on the formatted text.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'jsonrpc)
(require 'maskd)

;; eglot waits for `initialize' when it connects, and reconnects from a process
;; sentinel; the answer (every preset's name, a few KiB) read in one piece leaves no
;; gap in which the keys typed meanwhile reach a buffer whose fields are not open
;; again.  Emacs reads 4 KiB at a time by default; eglot's manual advises more.
(when (< read-process-output-max 65536)
  (setq read-process-output-max 65536))

(defcustom maskd-eglot-send-changes-immediately t
  "Whether a buffer with fields sends its changes at the end of each command.
Otherwise eglot sends them when Emacs is idle, and the formatting
comes after `eglot-send-changes-idle-time'."
  :type 'boolean
  :group 'maskd)

;;;; The server: maskd's rules and attaching by them

(defclass maskd-eglot-server (eglot-lsp-server) ()
  :documentation "An eglot connection to maskd: it passes on `maskd-rules'.")

(cl-defmethod eglot-initialization-options ((_server maskd-eglot-server))
  "The `initializationOptions' of a maskd server, with `maskd-rules'.
Those configured in `eglot-server-programs' come first; rules
configured there win over `maskd-rules'."
  (let ((options (cl-call-next-method)))
    (if (and (listp options) (plist-member options :rules))
        options
      (append (and (listp options) options)
              (list :rules (maskd--rules-vector))))))

(defun maskd-eglot--give-rules (rules)
  "Send RULES, the new `maskd-rules', to every running maskd eglot server."
  (dolist (server (seq-uniq (apply #'append
                                   (hash-table-values eglot--servers-by-project))))
    (when (and (cl-typep server 'maskd-eglot-server) (jsonrpc-running-p server))
      (jsonrpc-notify server :workspace/didChangeConfiguration
                      (maskd-rules-settings rules)))))

(add-hook 'maskd-rules-functions #'maskd-eglot--give-rules)

;;;###autoload
(defun maskd-eglot-ensure ()
  "Connect the current file's buffer to maskd through eglot, where rules may apply.
For `find-file-hook' (with `maskd-attach-by-rules' nil, so that
`maskd-mode' does not attach it too): where `maskd-rules' is
non-nil or the project has a `.maskd.json', eglot starts
`maskd-command' for the buffer's major mode and project, with
`maskd-rules' as `initializationOptions.rules', unless an eglot
server already serves them.  The daemon decides which files the
rules match and opens their fields."
  (when (and buffer-file-name (not (file-remote-p buffer-file-name))
             (not (eglot-managed-p)) (maskd-rules-may-apply-p))
    (condition-case err
        ;; The workspace folder may be above the file's directory (outside
        ;; a VCS, eglot's project is the directory): look up its server.
        (let ((default-directory (maskd-workspace-root)))
          (if (eglot-current-server)
              ;; It is now this buffer's server too.
              (eglot--maybe-activate-editing-mode)
            (eglot (list major-mode) (eglot--current-project) 'maskd-eglot-server
                   (cons (maskd--program) (cdr maskd-command))
                   (maskd-language-id))))
      (error
       (message "[maskd] field rules apply to %s, but %s"
                (file-name-nondirectory buffer-file-name)
                (if (eq (car err) 'maskd-error)
                    (cadr err)
                  (error-message-string err)))))))

(defvar-local maskd-eglot--own nil
  "Versions made by applying the daemon's edits: the daemon's own echo.")

(defvar-local maskd-eglot--undone nil
  "Versions made by an undo or a redo, whose didFormat is not applied.")

(defvar-local maskd-eglot--last-server nil
  "The eglot server that last had fields of this buffer.")

(defun maskd-eglot--server ()
  "Return the eglot server of the current buffer, or signal one line.
When the buffer's server had exited for good (maskd stopped
restarting it), it is connected again: a maskd command asks for it."
  (or (eglot-current-server)
      (when (and maskd-eglot--last-server
                 (not (jsonrpc-running-p maskd-eglot--last-server)))
        ;; Until the daemon answers: with a number of seconds, eglot stops
        ;; waiting at any process's output, and the command found no server.
        (let ((eglot-sync-connect t))
          (eglot-reconnect maskd-eglot--last-server))
        (eglot-current-server))
      (signal 'maskd-error
              (list "eglot manages no server for this buffer (M-x eglot)"))))

(defun maskd-eglot--buffer (server uri)
  "Return the buffer of SERVER whose document is URI, or nil."
  (cl-find-if (lambda (buffer)
                (and (buffer-live-p buffer)
                     (with-current-buffer buffer
                       (equal uri (plist-get (eglot--TextDocumentIdentifier)
                                             :uri)))))
              (eglot--managed-buffers server)))

(defun maskd-eglot--send ()
  "Send what eglot has not sent yet; return the version sent or nil."
  (when eglot--recent-changes
    (eglot--signal-textDocument/didChange)
    eglot--versioned-identifier))

(defvar maskd-eglot--command 0
  "A count of the commands run, to tell one command's changes apart.")

(defvar-local maskd-eglot--last-change nil
  "The value of `maskd-eglot--command' at the last change.")

(defun maskd-eglot--pre-command ()
  "Count the commands."
  (cl-incf maskd-eglot--command))

(defun maskd-eglot--advance (position text)
  "Return the LSP position after TEXT inserted at POSITION."
  (let ((lines (split-string text "\n")))
    (if (cdr lines)
        (list :line (+ (plist-get position :line) (1- (length lines)))
              :character (maskd--utf16-length (car (last lines))))
      (list :line (plist-get position :line)
            :character (+ (plist-get position :character)
                          (maskd--utf16-length text))))))

(defun maskd-eglot--after-change (&rest _)
  "Merge an insertion into the change before it, when they touch.
Typing or yanking over a selection in `delete-selection-mode' is a
deletion, then an insertion where it was; an undo or redo may insert
a keystroke and its formatting apart.  Sent as separate changes, the
daemon would take a deletion for a backspace, and put the caret
after the last insertion.  Runs after `eglot--after-change' on
`eglot--recent-changes', when both changes come from one command."
  (when (and undo-in-progress (not maskd--applying))
    ;; Eglot's version now is the one this change goes out with (or a later
    ;; change of the same undo).
    (push eglot--versioned-identifier maskd-eglot--undone))
  (when (and maskd--fields (consp eglot--recent-changes) (not maskd--applying)
             (eql maskd-eglot--last-change maskd-eglot--command))
    (pcase eglot--recent-changes
      (`((,ib ,ie 0 ,itext) (,b ,e ,len ,text) . ,rest)
       (when (and (equal ib ie) (stringp itext) (stringp text) (numberp len))
         (cond
          ((equal ib b)
           (setq eglot--recent-changes
                 (cons (list b e len (concat itext text)) rest)))
          ((equal ib (maskd-eglot--advance b text))
           (setq eglot--recent-changes
                 (cons (list b e len (concat text itext)) rest))))))))
  (setq maskd-eglot--last-change maskd-eglot--command))

(defun maskd-eglot--apply (edits)
  "Apply EDITS (LSP TextEdits) as the daemon's own echo."
  (when (> (length edits) 0)
    (maskd--apply-edits edits)
    (when (maskd-eglot--send)
      (push eglot--versioned-identifier maskd-eglot--own))))

;;;; The daemon's edits that eglot applies: without eglot's messages

(defvar maskd-eglot--applying-own nil
  "Non-nil while eglot applies edits a maskd daemon asked for.")

(defun maskd-eglot--maskd-p (server)
  "Return non-nil if the eglot SERVER is a maskd daemon.
A `maskd-eglot-server', or one started by plain eglot: it names
itself in `serverInfo'."
  (or (cl-typep server 'maskd-eglot-server)
      (equal (plist-get (eglot--server-info server) :name) "maskd")))

(cl-defmethod eglot-handle-request :around
  (server (_method (eql workspace/applyEdit)) &rest _)
  "Apply SERVER's `workspace/applyEdit'; a maskd daemon's without messages.
The daemon asks for one in its plain-client mode after every
formatted keystroke, and for the commands of its code actions:
eglot would log two lines for each."
  (let ((maskd-eglot--applying-own (maskd-eglot--maskd-p server)))
    (cl-call-next-method)))

(defun maskd-eglot--quietly (apply &rest args)
  "Call APPLY, eglot's edit application, with ARGS.
While it applies a maskd daemon's edits its progress messages
\(\"applying 1 edits...\") are neither shown nor logged."
  (if maskd-eglot--applying-own
      (let ((inhibit-message t)
            (message-log-max nil))
        (apply apply args))
    (apply apply args)))

(defun maskd-eglot--quiet-success (message format &rest args)
  "Call MESSAGE, `eglot--message', with FORMAT and ARGS.
Its \"Edit successful!\" after a maskd daemon's edits is left out."
  (unless (and maskd-eglot--applying-own (equal format "Edit successful!"))
    (apply message format args)))

(advice-add 'eglot--apply-text-edits :around #'maskd-eglot--quietly)
(advice-add 'eglot--message :around #'maskd-eglot--quiet-success)

(cl-defmethod eglot-handle-notification
  (server (_method (eql maskd/didFormat))
          &rest params &key textDocument edits cursor fields &allow-other-keys)
  "Apply SERVER's formatting: EDITS and CURSOR for TEXTDOCUMENT.
Drop it when the buffer has changed since, or when it answers the
edits of the previous one.  FIELDS are the states of the fields it
touched; PARAMS is all of it, passed to `maskd-format-functions'."
  (condition-case-unless-debug err
      (let ((buffer (maskd-eglot--buffer server (plist-get textDocument :uri)))
            (version (plist-get textDocument :version)))
        (when buffer
          (with-current-buffer buffer
            (setq maskd--formatted (max maskd--formatted version))
            (maskd--forget-closed (plist-get params :closed))
            (cond
             ;; Without a cursor it answers no change (rules opened fields).
             ((and (memql version maskd-eglot--own) cursor)
              (maskd--count :echo))
             ((or (not (eql version eglot--versioned-identifier))
                  eglot--recent-changes)
              (maskd--count :stale))
             ((and (memql version maskd-eglot--undone) cursor)
              (maskd--skip-undone params))
             (t
              (setq maskd-eglot--undone nil)
              (maskd--count :applied)
              (setq maskd-eglot--own
                    (cl-remove-if (lambda (v) (< v version)) maskd-eglot--own))
              ;; Join the person's change: drop the undo boundary after it.
              (let ((joined (when (and (> (length edits) 0)
                                       (consp buffer-undo-list)
                                       (null (car buffer-undo-list)))
                              (setq buffer-undo-list (cdr buffer-undo-list))
                              t)))
                (maskd-eglot--apply edits)
                (when joined
                  (undo-boundary)))
              (cond
               ((not cursor)
                (maskd-push-undo-rule-open params #'maskd-eglot-close-field
                                           #'maskd-eglot-open-field))
               ((maskd--holds-cursor-p params edits)
                (maskd--goto cursor)))
              (maskd--update-fields fields)
              (when (and maskd--fields
                         (not (memq #'maskd-eglot--post-command post-command-hook)))
                ;; Rules opened the buffer's first fields.
                (maskd-eglot--manage))
              (run-hook-with-args 'maskd-format-functions params))))))
    (error
     (setq maskd--last-error err)
     (message "[maskd] error handling maskd/didFormat: %s"
              (error-message-string err)))))

(defun maskd-eglot-await (&optional version)
  "Wait for the daemon's formatting of VERSION of the current buffer.
VERSION defaults to the current one.  Returns when the didFormat
has arrived, when the daemon says none is coming (it answers a
request sent after the change), or after `maskd-format-timeout'."
  (maskd--await-formatting (maskd-eglot--server) (eglot--TextDocumentIdentifier)
                           (or version eglot--versioned-identifier)))

(defun maskd-eglot--post-command ()
  "Send what the command changed in a buffer with fields; await formatting."
  (when (and maskd-eglot-send-changes-immediately maskd--fields
             (eglot-managed-p))
    ;; An error or a quit would take this function off the hook.
    (condition-case err
        (let ((version (maskd-eglot-send-safely)))
          (when (and version (> maskd-format-timeout 0))
            (maskd-eglot-await version)))
      (quit nil)
      (error
       (setq maskd--last-error err)
       (message "[maskd] %s" (error-message-string err))))))

(defun maskd-eglot-send-safely ()
  "Send what eglot has not sent yet, unless its daemon has died.
Return the version sent, or nil.  A daemon that died unnoticed makes
the send fail; its exit is handled by `maskd-eglot--on-exit', and the
new daemon gets the whole text."
  (let ((server (eglot-current-server)))
    (when (and server (process-live-p (jsonrpc--process server)))
      (condition-case err
          (maskd-eglot--send)
        (error
         (if (process-live-p (jsonrpc--process server))
             (signal (car err) (cdr err))
           nil))))))

(defun maskd-eglot--request (method params)
  "Send METHOD with PARAMS through eglot; signal `maskd-error' on failure."
  (maskd-eglot--send)
  (condition-case err
      (jsonrpc-request (maskd-eglot--server) method params
                       :timeout maskd-request-timeout)
    (jsonrpc-error
     (let ((data (cdr err)))
       (signal 'maskd-error
               (list (or (alist-get 'jsonrpc-error-message data)
                         (format "%s failed" method))
                     (alist-get 'jsonrpc-error-code data)))))))

(defun maskd-eglot--manage ()
  "Set the current buffer up for fields: hooks, eldoc, the exit watch."
  (add-hook 'post-command-hook #'maskd-eglot--post-command nil t)
  (add-hook 'pre-command-hook #'maskd-eglot--pre-command)
  (add-hook 'after-change-functions #'maskd-eglot--after-change 90 t)
  (maskd-eglot--use-eldoc)
  (setq maskd-eglot--last-server (maskd-eglot--server))
  (maskd-eglot--watch maskd-eglot--last-server))

(defun maskd-eglot--document ()
  "Send what eglot has not sent; return the VersionedTextDocumentIdentifier."
  (maskd-eglot--send)
  (eglot--VersionedTextDocumentIdentifier))

(defun maskd-eglot-open-field (mask beg end &optional id force)
  "Open a field with MASK over BEG..END through eglot's connection.
With END nil the daemon chooses the field around BEG.  MASK, ID,
FORCE and the result are as for `maskd-open-field'; an undo
of the open closes the field and gives the text back."
  (let ((result (maskd-eglot--request
                 :maskd/openField
                 (append (list :textDocument (maskd-eglot--document))
                         (maskd--where beg end)
                         (list :mask mask)
                         (and id (list :field id))
                         (and force (list :force t))))))
    (maskd-eglot--apply-result result mask)
    (maskd--push-undo-open (plist-get result :field)
                           #'maskd-eglot-close-field #'maskd-eglot-open-field)
    (maskd-eglot--manage)
    result))

(defun maskd-eglot--edits-applier (version)
  "Return a function applying edits to the current buffer while at VERSION."
  (lambda (edits)
    (when (eql version eglot--versioned-identifier)
      (maskd-eglot--apply edits))))

(defun maskd-eglot-open-fields (mask ranges &optional force)
  "Open a field with MASK over each of RANGES, through eglot, with FORCE.
As `maskd-open-fields'."
  (let* ((answer (maskd-request-open-fields (maskd-line-entries mask ranges force)
                                            #'maskd-eglot--request
                                            (maskd-eglot--document)))
         (errors (maskd-apply-open-results
                  (plist-get answer :results)
                  (make-list (length (plist-get answer :results)) mask)
                  (maskd-eglot--edits-applier (plist-get answer :version))
                  (list #'maskd-eglot-close-field #'maskd-eglot-open-field))))
    (maskd-eglot--manage)
    errors))

;;;###autoload
(defun maskd-eglot-field (mask &optional beg end force)
  "Format the text from BEG to END as a field with MASK, through eglot.
The region, the word at point, MASK and FORCE (the prefix argument)
are taken as by `maskd-field'; a region over several lines opens one
field per line."
  (interactive
   (list (maskd-eglot--read-mask "Field mask: ")
         (and (use-region-p) (region-beginning))
         (and (use-region-p) (region-end))
         current-prefix-arg))
  (maskd--reporting
    (let ((mask (if (stringp mask)
                    (maskd--resolve-mask mask #'maskd-eglot--presets)
                  mask)))
      (when (use-region-p)
        (deactivate-mark))
      (if (and beg (> (count-lines beg (or end beg)) 1))
          (let* ((before (length maskd--fields))
                 (errors (maskd-eglot-open-fields mask (list (cons beg end)) force)))
            (maskd-report-open-errors
             (+ (- (length maskd--fields) before) (length errors)) errors)
            errors)
        ;; Without a region the daemon chooses the field around point.
        (maskd-eglot-open-field mask (or beg (point)) (and beg (or end beg)) nil force)))))

(defun maskd-eglot--presets ()
  "Return the names of the presets of the current buffer's eglot server."
  (let ((experimental (plist-get (eglot--capabilities (maskd-eglot--server))
                                 :experimental)))
    (append (plist-get (plist-get experimental :maskd) :presets) nil)))

(defun maskd-eglot--regions (preset)
  "Return the region codes PRESET takes on the current buffer's eglot server."
  (let ((experimental (plist-get (eglot--capabilities (maskd-eglot--server))
                                 :experimental)))
    (maskd--announced-regions (plist-get experimental :maskd) preset)))

(defun maskd-eglot--read-mask (prompt)
  "Read a mask with PROMPT, offering your presets and the daemon's."
  (let ((daemon (maskd--reporting (maskd-eglot--presets))))
    (maskd--resolve-mask
     (maskd--completing-read-mask
      prompt (maskd--mask-table (seq-uniq (append (mapcar #'car maskd-presets) daemon))
                                #'maskd-eglot--regions))
     (lambda () daemon))))

(defun maskd-eglot--apply-result (result &optional mask)
  "Apply an openField or setMask RESULT: its edits, cursor and state.
MASK is the MaskSpec the field was opened with."
  (when (eql (plist-get result :version) eglot--versioned-identifier)
    (maskd-eglot--apply (plist-get result :edits))
    (when (plist-get result :cursor)
      (maskd--goto (plist-get result :cursor))))
  (when (plist-get result :state)
    (maskd--set-field (plist-get result :state) mask)))

(defun maskd-eglot-set-field-mask (field mask &optional force)
  "Change the mask of FIELD (its id) to MASK, through eglot, with FORCE.
As `maskd-set-field-mask'."
  (let ((result (maskd-eglot--request
                 :maskd/setMask
                 (append (list :textDocument (maskd-eglot--document)
                               :field field
                               :mask mask
                               :position (maskd--position (point)))
                         (and force (list :force t))))))
    (maskd-eglot--apply-result result mask)
    result))

;;;###autoload
(defun maskd-eglot-set-mask (mask)
  "Change the mask of the field at point to MASK, through eglot.
MASK is as for `maskd-eglot-field'; see `maskd-set-mask'."
  (interactive (list (maskd-eglot--read-mask "New mask: ")))
  (maskd--reporting
    (let ((state (maskd-eglot--field-at-point))
          (mask (if (stringp mask)
                    (maskd--resolve-mask mask #'maskd-eglot--presets)
                  mask)))
      (unless state
        (user-error "[maskd] no field at point"))
      (maskd-eglot-set-field-mask (plist-get state :field) mask))))

(defun maskd-eglot-close-field (field)
  "Stop formatting FIELD (its id), through eglot; its text stays.
A `padFraction' number gets its zeros, as in `maskd-close-field'."
  (maskd-eglot--request :maskd/closeField
                        (list :textDocument (eglot--TextDocumentIdentifier)
                              :field field
                              :position (maskd--position (point))))
  (maskd--remove-field field))

(defun maskd-eglot--field-at-point ()
  "Return the daemon's FieldState of the field at point, or nil."
  (maskd-eglot--request :maskd/formatHints
                        (list :textDocument (eglot--TextDocumentIdentifier)
                              :position (maskd--position (point)))))

;;;###autoload
(defun maskd-eglot-close ()
  "Stop formatting the field at point, through eglot; its text stays."
  (interactive)
  (maskd--reporting
    (let ((state (maskd-eglot--field-at-point)))
      (unless state
        (user-error "[maskd] no field at point"))
      (maskd-eglot-close-field (plist-get state :field))
      (plist-get state :field))))

;;;###autoload
(defun maskd-eglot-info ()
  "Show the state of the field at point, through eglot, and return it."
  (interactive)
  (maskd--reporting
    (let ((state (maskd-eglot--field-at-point)))
      (if state
          (progn
            (maskd--set-field state)
            (message "%s" (maskd-info-line state)))
        (message "[maskd] no field at point"))
      state)))

;;;###autoload
(defun maskd-eglot-list-fields ()
  "List the fields of the current buffer, through eglot, with their states.
Return the FieldStates, in document order."
  (interactive)
  (maskd--reporting
    (let ((states (maskd-eglot--request
                   :maskd/fields
                   (list :textDocument (eglot--TextDocumentIdentifier)))))
      (maskd--update-fields states)
      (maskd-list-fields-of states (current-buffer))
      states)))

;;;; ElDoc: one line on a field

(defun maskd-eglot-eldoc-function (callback)
  "A member of `eldoc-documentation-functions': the field at point, in one line.
Elsewhere eglot's hover is asked, as `eglot-hover-eldoc-function' does.
CALLBACK is eldoc's."
  (let ((state (maskd-field-state)))
    (if state
        (progn
          (funcall callback (string-remove-prefix "[maskd] "
                                                  (maskd-info-line state)))
          t)
      (eglot-hover-eldoc-function callback))))

(defun maskd-eglot--use-eldoc ()
  "Show the state of a field in one line instead of the daemon's hover."
  (when (memq #'eglot-hover-eldoc-function eldoc-documentation-functions)
    (setq-local eldoc-documentation-functions
                (cons #'maskd-eglot-eldoc-function
                      (remq #'eglot-hover-eldoc-function
                            eldoc-documentation-functions)))))

;;;; The daemon's exit

(defvar maskd-eglot--restarts nil
  "When eglot restarted a daemon with fields, newest first (`float-time').")

(defvar maskd-eglot--reopened nil
  "How many fields the last reconnection opened again, or nil.")

(defun maskd-eglot--watch (server)
  "Make `maskd-eglot--on-exit' handle the exit of SERVER's daemon."
  (let ((proc (jsonrpc--process server)))
    (unless (process-get proc 'maskd-eglot-watched)
      (process-put proc 'maskd-eglot-watched t)
      (let ((sentinel (process-sentinel proc)))
        (set-process-sentinel
         proc (lambda (p change)
                (if (process-live-p p)
                    (funcall sentinel p change)
                  (maskd-eglot--on-exit server sentinel p change))))))))

(defun maskd-eglot--on-exit (server sentinel proc change)
  "Run eglot's SENTINEL for the exit of PROC (CHANGE), SERVER's daemon.
When its buffers have fields and nobody asked it to stop, eglot
reconnects, `maskd-eglot--on-connect' opens the fields again, and one
line says so, instead of eglot's and jsonrpc's lines.  After
`maskd-max-restarts' restarts within a minute it is not restarted:
the fields are closed and typing is plain."
  (let ((buffers (seq-filter (lambda (b) (buffer-local-value 'maskd--fields b))
                             (eglot--managed-buffers server))))
    (if (or (null buffers) (eglot--shutdown-requested server))
        (funcall sentinel proc change)
      (let* ((reason (maskd-exit-reason proc))
             (recent (maskd-recent-restarts maskd-eglot--restarts))
             (give-up (>= (length recent) maskd-max-restarts))
             (inhibit (eglot--inhibit-autoreconnect server)))
        (cond
         (give-up (setf (eglot--inhibit-autoreconnect server) t))
         ;; eglot holds back a restart for `eglot-autoreconnect' seconds
         ;; after a connection; maskd's own limit applies instead.
         ((timerp inhibit)
          (cancel-timer inhibit)
          (setf (eglot--inhibit-autoreconnect server) nil)))
        (unless give-up
          (setq maskd-eglot--restarts (cons (float-time) recent)))
        (setq maskd-eglot--reopened nil)
        (let ((failure (condition-case err
                           (let ((inhibit-message t))
                             (funcall sentinel proc change)
                             nil)
                         (error err))))
          (if (and (not give-up) (not failure) maskd-eglot--reopened)
              (message "[maskd] the daemon exited (%s); eglot restarted it and \
re-opened %d field%s" reason maskd-eglot--reopened
                       (if (= maskd-eglot--reopened 1) "" "s"))
            (dolist (buffer buffers)
              (when (buffer-live-p buffer)
                (with-current-buffer buffer
                  (maskd--clear-fields))))
            (if give-up
                (message "[maskd] the daemon exited (%s), %d times within a \
minute: not restarting it; fields closed until you open one"
                         reason (1+ (length recent)))
              (message "[maskd] the daemon exited (%s) and did not restart%s; \
fields closed until you open one"
                       reason (if failure
                                  (concat ": " (error-message-string failure))
                                "")))))))))

(defun maskd-eglot--on-connect (server)
  "Open the fields of SERVER's buffers again (on `eglot-connect-hook')."
  (let ((count nil))
    (dolist (buffer (eglot--managed-buffers server))
      (with-current-buffer buffer
        (when maskd--fields
          (setq maskd-eglot--own nil
                maskd--formatted -1)
          (setq maskd-eglot--last-server server)
          (maskd-eglot--watch server)
          (maskd-eglot--use-eldoc)
          (setq count
                (+ (or count 0)
                   (condition-case nil
                       (maskd-reopen-fields
                        #'maskd-eglot--request
                        #'eglot--VersionedTextDocumentIdentifier
                        (maskd-eglot--edits-applier eglot--versioned-identifier))
                     (maskd-error
                      (maskd--clear-fields)
                      0)))))))
    (when count
      (setq maskd-eglot--reopened count))))

(add-hook 'eglot-connect-hook #'maskd-eglot--on-connect)

(provide 'maskd-eglot)
;;; maskd-eglot.el ends here
