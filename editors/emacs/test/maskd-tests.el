;;; maskd-tests.el --- Tests of maskd.el and maskd-eglot.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Typing tests against the real maskd daemon ($MASKD), key by key
;; through the command loop (`execute-kbd-macro'), so that
;; `after-change-functions' and `post-command-hook' run as they do for a
;; person.  Each scenario runs twice: with `maskd-mode' (jsonrpc.el) as
;; `maskd-test-NAME', and with eglot as `maskd-test-eglot-NAME' (tagged
;; `eglot'; eglot's didChange goes out from an idle timer, which never
;; fires in batch, so the eglot driver calls
;; `eglot--signal-textDocument/didChange' by hand after each command,
;; from `post-command-hook', and waits for the formatting; only
;; `maskd-test-eglot-immediate-changes' relies on the package's own
;; `maskd-eglot-send-changes-immediately').
;;
;; run.sh runs them: `maskd-test-run-jsonrpc' under -Q, and
;; `maskd-test-run-eglot' without -Q (eglot is not built into Emacs 28:
;; Debian's elpa-eglot is found through site-lisp).

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'seq)

(defvar maskd-test--dir
  (file-name-directory (or load-file-name buffer-file-name))
  "The directory of this file.")

(add-to-list 'load-path (expand-file-name ".." maskd-test--dir))
(require 'maskd)

(defvar maskd-test-binary
  (let ((env (getenv "MASKD")))
    (if (and env (not (string-empty-p env)))
        env
      (expand-file-name "../../../.build/debug/maskd" maskd-test--dir)))
  "The daemon under test.")

(setq maskd-command (list maskd-test-binary))
;; The wait ends as soon as the daemon has answered; this only bounds it
;; on a loaded machine.
(setq maskd-format-timeout 10)
(setq maskd-request-timeout 20)
(setq transient-mark-mode t)
;; Emacs's undo timer puts a boundary into each buffer changed outside a
;; command 10 s after such a change.  The tests open fields outside the
;; command loop, where one landing would split their undo steps at
;; random: it is never set here, except where a test sets it on purpose
;; (`maskd-test--with-eager-undo-timer').
(when (timerp undo-auto-current-boundary-timer)
  (cancel-timer undo-auto-current-boundary-timer))
(setq undo-auto-current-boundary-timer t)
;; As the README advises for buffers of many fields: eglot's log costs
;; more than the rest of an open of 1,000 fields.
(defvar eglot-events-buffer-size)
(setq eglot-events-buffer-size 0)
(delete-selection-mode 1)

(defconst maskd-test-phone "+1 ([000]) [000]-[0000]")
(defconst maskd-test-card "[0000] [0000] [0000] [0000] [999]")

(defconst maskd-test-phone-states
  '(("+1 (5" 5) ("+1 (55" 6) ("+1 (555" 7) ("+1 (555) 1" 10) ("+1 (555) 12" 11)
    ("+1 (555) 123" 12) ("+1 (555) 123-4" 14) ("+1 (555) 123-45" 15)
    ("+1 (555) 123-456" 16) ("+1 (555) 123-4567" 17))
  "The phone field after each digit of 5551234567: text, UTF-16 caret.")

;;;; Drivers

(defvar maskd-test--driver 'jsonrpc
  "How the scenario talks to the daemon: `jsonrpc' or `eglot'.")

(defvar maskd-test--buffers nil
  "Buffers made by the running test.")

(defvar maskd-test--dir-eglot nil
  "The directory of the eglot tests' files (one eglot project).")

(defvar maskd-test--file-count 0
  "Counter for the eglot tests' file names.")

(defun maskd-test--eglot-available-p ()
  "Return non-nil if eglot and maskd-eglot load."
  (and (require 'eglot nil t) (require 'maskd-eglot nil t)))

(with-eval-after-load 'eglot
  ;; With a number, `eglot' waits for the daemon's answer to initialize
  ;; only until any process's output arrives (an earlier test's daemon
  ;; pushing diagnostics, say), then connects in the background: the
  ;; buffer is not managed yet, and eglot's "Connected!" comes in the
  ;; middle of the test.  The tests check the buffer right after: wait
  ;; for the answer itself, as long as a loaded machine needs.
  (setq eglot-sync-connect t
        eglot-connect-timeout 120)
  ;; The daemon asks eglot to watch `.maskd.json'.  In batch, Emacs 28
  ;; never handles a file-notify event (it is input, for a command loop),
  ;; and once one is pending no process sentinel runs (a file created in
  ;; a watched folder, then a child killed: its sentinel never runs), so
  ;; a daemon's exit would go unnoticed.  These tests create files in the
  ;; project as they go and test no file watching: decline it.
  (cl-defmethod eglot-register-capability :around
    (_server (_method (eql workspace/didChangeWatchedFiles)) _id &rest _)
    nil))

(defun maskd-test--eglot-server ()
  "Return the eglot server of the current buffer, starting one if needed."
  (or (and (eglot-managed-p) (eglot-current-server))
      (progn
        (eglot '(text-mode) (eglot--current-project) 'eglot-lsp-server
               (list maskd-test-binary) "plaintext")
        (unless (eglot-managed-p)
          (error "Eglot does not manage %s" (current-buffer)))
        (eglot-current-server))))

(defun maskd-test--buffer (text)
  "Make a buffer holding TEXT, select it and connect it to the daemon."
  (let ((buffer
         (if (eq maskd-test--driver 'eglot)
             (progn
               (unless maskd-test--dir-eglot
                 (setq maskd-test--dir-eglot
                       (file-name-as-directory (make-temp-file "maskd-eglot" t))))
               (let ((file (expand-file-name
                            (format "form%d.txt" (cl-incf maskd-test--file-count))
                            maskd-test--dir-eglot)))
                 (with-temp-file file (insert text))
                 (find-file-noselect file)))
           (let ((b (generate-new-buffer "maskd-test")))
             (with-current-buffer b (insert text))
             b))))
    (push buffer maskd-test--buffers)
    (switch-to-buffer buffer)
    (buffer-enable-undo)
    (setq buffer-undo-list nil)
    (goto-char (point-max))
    (when (eq maskd-test--driver 'eglot)
      (let ((default-directory maskd-test--dir-eglot))
        (maskd-test--eglot-server)))
    buffer))

(defun maskd-test--open (mask beg end)
  "Open a field with MASK over BEG..END through the driver.
The open ends with an undo boundary, as the command loop puts one
after the command."
  (prog1 (if (eq maskd-test--driver 'eglot)
             (maskd-eglot-field mask beg end)
           (maskd-field mask beg end))
    (undo-boundary)))

(defun maskd-test--sync ()
  "Make the driver send the last change and await its formatting.
With `maskd-format-timeout' 0 it does not wait, as the package's own
hooks do not."
  (when (and (eq maskd-test--driver 'eglot) (eglot-managed-p))
    ;; Eglot's idle timer does not fire in batch: send by hand.
    (when (and (maskd-eglot-send-safely) (> maskd-format-timeout 0))
      (maskd-eglot-await eglot--versioned-identifier))))

(defun maskd-test--set-mask (mask)
  "Change the mask of the field at point to MASK through the driver."
  (if (eq maskd-test--driver 'eglot)
      (maskd-eglot-set-mask mask)
    (maskd-set-mask mask)))

(defun maskd-test--field (text mask &optional beg end)
  "A buffer holding TEXT with a field with MASK over BEG..END.
BEG and END default to the whole text.  Point is at the end."
  (maskd-test--buffer text)
  (maskd-test--open mask (or beg (point-min)) (or end (point-max)))
  (goto-char (point-max)))

(defun maskd-test--run (driver body)
  "Run BODY, a function, with DRIVER; clean up after it."
  (let ((maskd-test--driver driver)
        (maskd-test--buffers nil)
        (maskd-test--last-command nil)
        (maskd-eglot-send-changes-immediately nil))
    (setq maskd--last-error nil)
    (when (eq driver 'eglot)
      (add-hook 'post-command-hook #'maskd-test--sync))
    (unwind-protect
        (progn
          (funcall body)
          (should (equal nil maskd--last-error)))
      (remove-hook 'post-command-hook #'maskd-test--sync)
      (dolist (b maskd-test--buffers)
        (when (buffer-live-p b)
          (with-current-buffer b
            (set-buffer-modified-p nil))
          (kill-buffer b))))))

(defmacro maskd-test--deftest (name doc &rest body)
  "Define maskd-test-NAME and maskd-test-eglot-NAME for NAME.
DOC is their documentation; BODY runs with each driver."
  (declare (indent 1) (doc-string 2))
  `(progn
     (ert-deftest ,(intern (format "maskd-test-%s" name)) ()
       ,doc
       (maskd-test--run 'jsonrpc (lambda () ,@body)))
     (ert-deftest ,(intern (format "maskd-test-eglot-%s" name)) ()
       ,doc
       :tags '(eglot)
       (skip-unless (maskd-test--eglot-available-p))
       (maskd-test--run 'eglot (lambda () ,@body)))))

;;;; Keys and expectations

(defun maskd-test--caret ()
  "Return point as a UTF-16 column."
  (maskd--utf16-column (point)))

(defvar maskd-test--last-command nil
  "The last command of the previous keyboard macro.")

(defun maskd-test--press (keys)
  "Run the key vector KEYS through the command loop, then sync the driver.
Each call of `execute-kbd-macro' starts with `last-command' nil; the
last command of the previous call is carried over, as the command
loop does for a person, so that Emacs groups typed characters into
one undo step and two undos in a row continue the undo chain."
  (setq this-command maskd-test--last-command)
  (execute-kbd-macro keys)
  (setq maskd-test--last-command last-command)
  (maskd-test--sync))

(defun maskd-test--keys (keys)
  "Press KEYS (as for `kbd'), as a person would."
  (maskd-test--press (kbd keys)))

(defun maskd-test--type (string)
  "Type the characters of STRING one at a time."
  (seq-doseq (ch string)
    (maskd-test--press (vector ch))))

(defun maskd-test--expect (label text caret &optional pos)
  "Check that the buffer has TEXT and point is at UTF-16 CARET.
POS, when given, is point as a character position from 0.  LABEL
names the step in a failure."
  (should (equal (list label text caret (or pos (1- (point))))
                 (list label (buffer-string) (maskd-test--caret)
                       (1- (point))))))

(defun maskd-test--step (keys text caret &optional pos)
  "Press KEYS (as for `kbd'), then expect TEXT, CARET and POS."
  (maskd-test--keys keys)
  (maskd-test--expect keys text caret pos))

(defun maskd-test--steps (string states &optional offset)
  "Type STRING a character at a time, checking STATES after each.
STATES is a list of (TEXT CARET); OFFSET is added to each CARET."
  (cl-loop for ch across string
           for (text caret) in states
           do (maskd-test--type (string ch))
           (maskd-test--expect (string ch) text (+ caret (or offset 0)))))

(defun maskd-test--full-phone ()
  "An empty phone field typed full: +1 (555) 123-4567."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--type "5551234567")
  (maskd-test--expect "5551234567" "+1 (555) 123-4567" 17))

(defun maskd-test--stat (key)
  "Return the didFormat counter KEY of the current buffer."
  (or (plist-get maskd--stats key) 0))

;;;; Scenarios

(maskd-test--deftest phone-typed
  "A US phone typed from empty, text and caret after every digit."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--expect "open" "" 0)
  (maskd-test--steps "5551234567" maskd-test-phone-states)
  (should (equal "5551234567" (plist-get (maskd-field-state) :value)))
  (should (eq t (plist-get (maskd-field-state) :valid)))
  ;; Full: one more digit changes nothing.
  (maskd-test--step "8" "+1 (555) 123-4567" 17)
  ;; One didFormat per keystroke: none stale, and the plugin's own edits
  ;; brought none (the daemon took them for its echo).
  (should (equal '(11 0 0) (list (maskd-test--stat :applied)
                                 (maskd-test--stat :stale)
                                 (maskd-test--stat :echo)))))

(maskd-test--deftest lazy-literals
  "Trailing literals wait for the next digit; the placeholder shows the rest."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--type "555")
  (maskd-test--expect "555" "+1 (555" 7)
  (let* ((field (car maskd--fields))
         (ov (nth 2 field)))
    (should (equal ") ___-____" (plist-get (nth 1 field) :placeholder)))
    (should (equal 8 (overlay-end ov)))
    (should (equal ") ___-____"
                   (substring-no-properties (overlay-get ov 'after-string))))
    (should (eq 'maskd-placeholder
                (get-text-property 0 'face (overlay-get ov 'after-string)))))
  ;; A typed literal shows; backspace over it removes it again.
  (maskd-test--step ")" "+1 (555)" 8)
  (maskd-test--step "DEL" "+1 (555" 7)
  (maskd-test--step "1" "+1 (555) 1" 10)
  (should (equal "__-____"
                 (substring-no-properties
                  (overlay-get (nth 2 (car maskd--fields)) 'after-string)))))

(maskd-test--deftest card-typed
  "A card number typed from empty, grouped by four, up to 19 digits."
  (maskd-test--field "" maskd-test-card)
  (let ((text ""))
    (cl-loop for ch across "4111111111111111123"
             for i from 0
             do (setq text (concat text (if (and (> i 0) (zerop (% i 4))) " " "")
                                   (string ch)))
             (maskd-test--step (string ch) text (length text))))
  (maskd-test--step "9" "4111 1111 1111 1111 123" 23))

(maskd-test--deftest separator-backspace
  "Backspace right after a separator deletes the digit before it."
  (maskd-test--full-phone)
  (maskd-test--step "C-b C-b C-b C-b" "+1 (555) 123-4567" 13)
  (maskd-test--step "DEL" "+1 (555) 124-567" 11)
  (maskd-test--step "C-b C-b" "+1 (555) 124-567" 9)
  (maskd-test--step "DEL" "+1 (551) 245-67" 6))

(maskd-test--deftest alipay
  "Delete a digit in the middle and type the right one: the caret stays."
  (maskd-test--full-phone)
  (maskd-test--step "C-b C-b C-b" "+1 (555) 123-4567" 14)
  ;; The caret stays after the third digit, not after the dash after it.
  (maskd-test--step "DEL" "+1 (555) 123-567" 12)
  (maskd-test--step "9" "+1 (555) 123-9567" 14)
  (maskd-test--step "8" "+1 (555) 123-9856" 15))

(maskd-test--deftest paste
  "A paste with junk after the number, into an empty field."
  (maskd-test--field "" maskd-test-phone)
  (kill-new "+1 (555) 123-4567 ext")
  (maskd-test--step "C-y" "+1 (555) 123-4567" 17)
  (should (equal "5551234567" (plist-get (maskd-field-state) :value))))

(maskd-test--deftest rejected-letter
  "A letter in a digit slot changes nothing and is reported."
  (maskd-test--field "" maskd-test-phone)
  (let ((rejected nil))
    (let ((maskd-format-functions
           (list (lambda (params) (push (plist-get params :rejected) rejected)))))
      (maskd-test--type "555")
      (setq rejected nil)
      (maskd-test--step "a" "+1 (555" 7)
      (should (equal '("a") rejected))
      (maskd-test--step "x" "+1 (555" 7)
      (maskd-test--step "1" "+1 (555) 1" 10)
      (maskd-test--step "Z" "+1 (555) 1" 10)
      (should (equal '("Z" "" "x" "a") rejected)))))

(maskd-test--deftest undo
  "One undo takes a keystroke and its formatting; redo brings both back."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--type "555")
  ;; A command between keystrokes ends Emacs's grouping of typed characters.
  (maskd-test--step "C-e" "+1 (555" 7)
  (maskd-test--step "1" "+1 (555) 1" 10)
  (maskd-test--step "C-/" "+1 (555" 7)
  (should (equal "555" (plist-get (maskd-field-state) :value)))
  ;; Redo brings the keystroke and its formatting back, point where Emacs
  ;; puts it (the plugin moves nothing after an undo or a redo); then undo again.
  (maskd-test--step "C-M-_" "+1 (555) 1" 7)
  (maskd-test--step "C-/" "+1 (555" 7)
  ;; The next undo takes the three digits typed together.
  (maskd-test--step "C-/" "" 0)
  ;; Typing again after undoing everything.
  (maskd-test--step "C-e" "" 0)
  (maskd-test--step "9" "+1 (9" 5))

(maskd-test--deftest undo-after-separator
  "Undo of a backspace that removed a digit across a separator."
  (maskd-test--full-phone)
  (maskd-test--step "C-b C-b C-b C-b" "+1 (555) 123-4567" 13)
  (maskd-test--step "DEL" "+1 (555) 124-567" 11)
  (maskd-test--step "C-/" "+1 (555) 123-4567" 13))

(maskd-test--deftest multibyte
  "A field between 名前: and 😀: UTF-16 columns on both sides."
  (maskd-test--buffer "名前: 😀")
  (maskd-test--open maskd-test-phone 5 5)
  (should (equal "名前: 😀" (buffer-string)))
  (goto-char 5)
  (cl-loop for ch across "5551234567"
           for (text caret) in maskd-test-phone-states
           do (maskd-test--type (string ch))
           (maskd-test--expect (string ch) (concat "名前: " text "😀")
                               (+ 4 caret) (+ 4 caret)))
  (maskd-test--step "C-b C-b C-b" "名前: +1 (555) 123-4567😀" 18 18)
  (maskd-test--step "DEL" "名前: +1 (555) 123-567😀" 16 16)
  (maskd-test--step "9" "名前: +1 (555) 123-9567😀" 18 18)
  ;; After the emoji: two UTF-16 units, one Emacs character.
  (maskd-test--step "C-e" "名前: +1 (555) 123-9567😀" 23 22)
  (let ((applied (maskd-test--stat :applied)))
    ;; Typing after the emoji is outside the field: nothing formats it.
    (maskd-test--step "x" "名前: +1 (555) 123-9567😀x" 24 23)
    (should (equal applied (maskd-test--stat :applied))))
  (should (equal "5551239567" (plist-get (maskd-field-state "f1") :value))))

(maskd-test--deftest mask-change
  "A mask change mid-input re-flows the digits."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--type "5551")
  (maskd-test--expect "5551" "+1 (555) 1" 10)
  (maskd-test--set-mask maskd-test-card)
  (maskd-test--expect "card" "5551" 4)
  (maskd-test--step "2" "5551 2" 6)
  (maskd-test--set-mask maskd-test-phone)
  (maskd-test--expect "phone" "+1 (555) 12" 11)
  (maskd-test--step "3" "+1 (555) 123" 12))

(maskd-test--deftest info-and-close
  "The field's state at point, then closing it: typing stays as typed."
  (maskd-test--field "Tel: " maskd-test-phone 6 6)
  (maskd-test--type "555")
  (maskd-test--expect "555" "Tel: +1 (555" 12)
  (let ((state (if (eq maskd-test--driver 'eglot) (maskd-eglot-info) (maskd-info))))
    (should (equal "555" (plist-get state :value)))
    (should (equal "digit" (plist-get state :next)))
    (should (equal "555 [incomplete, next digit]" (maskd-describe state))))
  (if (eq maskd-test--driver 'eglot) (maskd-eglot-close) (maskd-close))
  (should (null maskd--fields))
  (maskd-test--step "1" "Tel: +1 (5551" 13))

(maskd-test--deftest close-pads
  "Closing a padFraction number pads it, point after the pad at the end."
  (maskd-test--field "Sum: " '(:number (:group "," :decimal "." :fraction 2
                                       :padFraction t))
                     6 6)
  (maskd-test--type "1234.5")
  (maskd-test--expect "1234.5" "Sum: 1,234.5" 12)
  (let ((applied (maskd-test--stat :applied)))
    (if (eq maskd-test--driver 'eglot) (maskd-eglot-close) (maskd-close))
    (maskd-test--sync)
    (maskd-test--expect "closed" "Sum: 1,234.50" 13)
    (should (null maskd--fields))
    ;; The padding's didFormat applied; its echo brought none.
    (should (equal (list (1+ applied) 0)
                   (list (maskd-test--stat :applied) (maskd-test--stat :echo)))))
  ;; Typing on is plain text.
  (maskd-test--step "7" "Sum: 1,234.507" 14)
  (should (equal 0 (maskd-test--stat :echo)))
  ;; Point inside the number keeps the digits to its right.
  (maskd-test--field "" '(:number (:fraction 2 :padFraction t)))
  (maskd-test--type "12.5")
  (backward-char 1)
  (if (eq maskd-test--driver 'eglot) (maskd-eglot-close) (maskd-close))
  (maskd-test--sync)
  (maskd-test--expect "inside" "12.50" 3))

(maskd-test--deftest field-command
  "The command on the word before point, with a preset read with completion."
  (maskd-test--buffer "Tel: 5551234567")
  (let ((offered nil))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq offered collection)
                 "phone.us")))
      (call-interactively (if (eq maskd-test--driver 'eglot)
                              #'maskd-eglot-field
                            #'maskd-field)))
    (should (member "phone.us" (all-completions "" offered)))
    (should (member "card" (all-completions "" offered))))
  (maskd-test--expect "open" "Tel: +1 (555) 123-4567" 22)
  (should (equal maskd-test-phone (plist-get (maskd-field-state) :mask))))

(maskd-test--deftest own-preset
  "A preset of your own, from `maskd-presets'."
  (let ((maskd-presets '(("uk" . "+44 [0000] [000000]"))))
    (maskd-test--field "" "uk")
    (maskd-test--type "7911")
    (maskd-test--expect "7911" "+44 7911" 8)
    (maskd-test--step "1" "+44 7911 1" 10)))

(maskd-test--deftest open-formats
  "Opening a field over existing text brings it into form."
  (maskd-test--field "Tel: 5551234" maskd-test-phone 6 13)
  (maskd-test--expect "open" "Tel: +1 (555) 123-4" 19)
  (maskd-test--step "5" "Tel: +1 (555) 123-45" 20))

(maskd-test--deftest type-over-selection
  "Typing over a selection replaces it in one change."
  (maskd-test--full-phone)
  ;; Select "555" inside the parentheses.
  (goto-char 5)
  (set-mark 5)
  (goto-char 8)
  (activate-mark)
  (maskd-test--step "9" "+1 (912) 345-67" 5))

(defun maskd-test--connection ()
  "Return the driver's connection to the daemon."
  (if (eq maskd-test--driver 'eglot) (eglot-current-server) maskd--connection))

(defun maskd-test--version ()
  "Return the version of the current buffer the driver last sent."
  (if (eq maskd-test--driver 'eglot) eglot--versioned-identifier maskd--version))

(defun maskd-test--await-format ()
  "Let the daemon's answer to the current version arrive."
  (let ((deadline (+ (float-time) maskd-format-timeout))
        (version (maskd-test--version))
        (proc (jsonrpc--process (maskd-test--connection))))
    (while (and (< maskd--formatted version) (< (float-time) deadline))
      (accept-process-output proc 0.02))))

(maskd-test--deftest late-format
  "A didFormat that comes after its command ended joins its undo step."
  (maskd-test--field "" maskd-test-phone)
  (maskd-test--type "555")
  (maskd-test--keys "C-e")
  (let ((maskd-format-timeout 0))
    (maskd-test--type "1"))
  ;; The command loop puts a boundary after each command.
  (undo-boundary)
  (should (equal "+1 (5551" (buffer-string)))
  (maskd-test--await-format)
  (maskd-test--expect "late" "+1 (555) 1" 10)
  (maskd-test--step "C-/" "+1 (555" 7))

(maskd-test--deftest stale-format
  "A didFormat for a version the buffer has moved past is dropped."
  (maskd-test--field "" maskd-test-phone)
  (let ((maskd-format-timeout 0))
    ;; The second key goes out before the first one's answer is read.
    (maskd-test--type "55")
    (should (equal "55" (buffer-string))))
  (maskd-test--await-format)
  (should (equal 1 (maskd-test--stat :stale)))
  ;; The daemon formats the buffer the person left.
  (maskd-test--expect "late" "+1 (55" 6)
  (maskd-test--step "5" "+1 (555" 7)
  (maskd-test--step "1" "+1 (555) 1" 10))

(maskd-test--deftest echo-no-loop
  "The daemon's echo gets no didFormat: one per key, and no loop.
Over a phone typed key by key, the didChange notifications sent are
the ten keys plus one echo for each didFormat that had edits, and
the didFormat notifications received are the ten keys' answers;
then nothing more comes."
  (maskd-test--field "" maskd-test-phone)
  (let* ((sent nil)
         (answered nil)
         (with-edits 0)
         (count (lambda (_conn method params)
                  (when (eq method :textDocument/didChange)
                    (push (plist-get (plist-get params :textDocument) :version)
                          sent))))
         (maskd-format-functions
          (list (lambda (params)
                  (push (plist-get (plist-get params :textDocument) :version)
                        answered)
                  (when (> (length (plist-get params :edits)) 0)
                    (cl-incf with-edits))))))
    (advice-add 'jsonrpc-notify :before count)
    (unwind-protect
        (progn
          (maskd-test--type "5551234567")
          ;; Time for a didFormat answering an echo, were one to come.
          (let ((deadline (+ (float-time) 0.3))
                (proc (jsonrpc--process (maskd-test--connection))))
            (while (< (float-time) deadline)
              (accept-process-output proc 0.05))))
      (advice-remove 'jsonrpc-notify count))
    (maskd-test--expect "typed" "+1 (555) 123-4567" 17)
    ;; "+1 (", ") " and "-": three answers with edits, three echoes.
    (should (equal 3 with-edits))
    (should (equal (+ 10 with-edits) (length sent)))
    (should (equal '(10 0 0) (list (maskd-test--stat :applied)
                                   (maskd-test--stat :stale)
                                   (maskd-test--stat :echo))))
    ;; Each key's didChange was answered; the echoes were not.
    (should (equal 10 (length answered)))
    (should (cl-subsetp answered sent))
    (should (equal with-edits (length (cl-set-difference sent answered))))))

(defun maskd-test--silent-insert ()
  "Insert 1 without running the modification hooks."
  (interactive)
  (let ((inhibit-modification-hooks t))
    (insert "1")))

(ert-deftest maskd-test-hidden-change ()
  "A change made with the modification hooks inhibited is sent in full."
  (maskd-test--run
   'jsonrpc
   (lambda ()
     (maskd-test--field "" maskd-test-phone)
     (maskd-test--type "555")
     (local-set-key (kbd "C-c x") #'maskd-test--silent-insert)
     (maskd-test--step "C-c x" "+1 (555) 1" 10)
     (maskd-test--step "2" "+1 (555) 12" 11))))

(ert-deftest maskd-test-utf16-columns ()
  "UTF-16 columns are counted by hand: characters past #xFFFF count 2."
  (with-temp-buffer
    (insert "a😀b\n名前😀x")
    (should (equal '(:line 0 :character 3) (maskd--position 3)))
    (should (equal '(:line 0 :character 4) (maskd--position 4)))
    (should (equal '(:line 1 :character 4) (maskd--position 8)))
    (should (equal '(:line 1 :character 5) (maskd--position 9)))
    (should (equal 4 (maskd--point '(:line 0 :character 4))))
    (should (equal 8 (maskd--point '(:line 1 :character 4))))
    (should (equal 9 (maskd--point '(:line 1 :character 99))))
    (should (equal 9 (maskd--point '(:line 7 :character 0))))
    (should (equal 5 (maskd--utf16-length "a😀名b")))))

(ert-deftest maskd-test-shutdown ()
  "The daemon exits with code 0 after shutdown, and starts again on demand."
  (maskd--connection)
  (let ((proc (jsonrpc--process maskd--connection)))
    (maskd-shutdown)
    (should-not (process-live-p proc))
    (should (equal 0 (process-exit-status proc))))
  (maskd-test--run 'jsonrpc
                   (lambda ()
                     (maskd-test--field "" maskd-test-phone)
                     (maskd-test--step "5" "+1 (5" 5))))

(ert-deftest maskd-test-eglot-immediate-changes ()
  "With `maskd-eglot-send-changes-immediately', eglot needs no hand sync."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (maskd-test--run
   'eglot
   (lambda ()
     ;; Only the package's own hook sends the changes here.
     (remove-hook 'post-command-hook #'maskd-test--sync)
     (let ((maskd-eglot-send-changes-immediately t))
       (maskd-test--field "" maskd-test-phone)
       (cl-loop for ch across "5551"
                for (text caret) in maskd-test-phone-states
                do (execute-kbd-macro (vector ch))
                (maskd-test--expect (string ch) text caret))
       (should (null eglot--recent-changes))))))

;;;; eglot applying the daemon's edits

(defun maskd-test--messages-since (start)
  "Return what *Messages* logged after position START of it."
  (with-current-buffer (messages-buffer)
    (buffer-substring-no-properties (min start (point-max)) (point-max))))

(ert-deftest maskd-test-eglot-applied-edits-quiet ()
  "Eglot applies a maskd daemon's edits without logging a line for each.
The daemon in its plain-client mode (`workspace/applyEdit') formats a
number typed key by key; *Messages* gets none of eglot's lines about
the edits.  An edit eglot applies for anything else still logs them."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (let* ((dir (file-name-as-directory (make-temp-file "maskd-applied" t)))
         (file (expand-file-name "form.txt" dir))
         (buffer nil)
         (server nil)
         (eglot-confirm-server-initiated-edits nil))
    (with-temp-file file (insert "Tel: "))
    (unwind-protect
        (progn
          (setq buffer (find-file-noselect file))
          (set-buffer buffer)
          (let ((default-directory dir))
            (setq server (eglot '(text-mode) (eglot--current-project) 'eglot-lsp-server
                                `(,maskd-test-binary :initializationOptions (:edits "applyEdit"))
                                "plaintext")))
          (eglot-execute-command
           server "maskd.openField"
           (vector (list :textDocument (eglot--TextDocumentIdentifier)
                         :range (list :start (list :line 0 :character 5)
                                      :end (list :line 0 :character 5))
                         :mask "+1 ([000]) [000]-[0000]")))
          (let ((start (with-current-buffer (messages-buffer) (point-max))))
            (cl-loop for ch across "5551"
                     for (text) in maskd-test-phone-states
                     do (goto-char (point-max))
                     (insert ch)
                     ;; The daemon holds its edits until the typing pauses.
                     (let ((deadline (+ (float-time) 10)))
                       (while (and (not (equal (buffer-string) (concat "Tel: " text)))
                                   (< (float-time) deadline))
                         (eglot--signal-textDocument/didChange)
                         (accept-process-output nil 0.02)))
                     (should (equal (buffer-string) (concat "Tel: " text))))
            (should (equal "" (maskd-test--messages-since start)))
            ;; Not the daemon's: eglot says what it did, as ever.
            (setq start (with-current-buffer (messages-buffer) (point-max)))
            (eglot--apply-workspace-edit
             `(:changes (,(intern (concat ":" (eglot--path-to-uri file)))
                         [(:range (:start (:line 0 :character 0) :end (:line 0 :character 3))
                                  :newText "Phone")])))
            (should (equal "Phone: +1 (555) 1" (buffer-string)))
            (let ((logged (maskd-test--messages-since start)))
              (should (string-match-p "\\[eglot\\] applying 1 edits" logged))
              (should (string-match-p "\\[eglot\\] Edit successful!" logged)))))
      (when server
        (let ((eglot-autoshutdown nil))
          (ignore-errors (eglot-shutdown server))))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer (set-buffer-modified-p nil))
        (kill-buffer buffer))
      (delete-directory dir t))))

;;;; Opening never loses text; the field at point

(defun maskd-test--call (command &rest args)
  "Run the driver's COMMAND (a symbol of maskd.el) with ARGS.
Under eglot, the maskd-eglot command of the same name."
  (apply (if (eq maskd-test--driver 'eglot)
             (intern (replace-regexp-in-string "\\`maskd-" "maskd-eglot-"
                                               (symbol-name command)))
           command)
         args))

(defun maskd-test--daemon-fields ()
  "Return the daemon's FieldStates of the current buffer, as a list."
  (append (if (eq maskd-test--driver 'eglot)
              (maskd-eglot--request :maskd/fields
                                    (list :textDocument
                                          (eglot--TextDocumentIdentifier)))
            (maskd--request :maskd/fields
                            (list :textDocument (maskd--document))))
          nil))

(maskd-test--deftest open-over-label-refused
  "A field over a label would drop its letters: refused, nothing changed."
  (maskd-test--buffer "Phone: 5551234567")
  (goto-char 3)
  (let ((err (should-error (maskd-test--call 'maskd-field "phone.us")
                           :type 'user-error)))
    (should (string-match-p "\\`\\[maskd\\] 'Phone:' does not fit .*would be dropped"
                            (cadr err))))
  (should (equal "Phone: 5551234567" (buffer-string)))
  (should (null maskd--fields))
  (should (null (maskd-test--daemon-fields)))
  ;; The digits alone open.
  (goto-char (point-max))
  (maskd-test--call 'maskd-field "phone.us")
  (maskd-test--expect "open" "Phone: +1 (555) 123-4567" 24))

(maskd-test--deftest undo-open
  "An undo of an open closes the field and gives back the text; redo re-opens."
  (maskd-test--buffer "Phone: 5551234567")
  (local-set-key (kbd "C-c x") (if (eq maskd-test--driver 'eglot)
                                   #'maskd-eglot-field
                                 #'maskd-field))
  (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "phone.us")))
    (maskd-test--keys "C-e")
    (maskd-test--keys "C-c x"))
  (maskd-test--expect "open" "Phone: +1 (555) 123-4567" 24)
  (should (= 1 (length maskd--fields)))
  (maskd-test--step "C-/" "Phone: 5551234567" 17)
  (should (null maskd--fields))
  (should (null (maskd-test--daemon-fields)))
  ;; Redo: the field comes back, formatted.
  (maskd-test--keys "C-M-_")
  (should (equal "Phone: +1 (555) 123-4567" (buffer-string)))
  (should (= 1 (length maskd--fields)))
  (should (= 1 (length (maskd-test--daemon-fields))))
  (maskd-test--step "C-/" "Phone: 5551234567" 17)
  (should (null maskd--fields))
  ;; Typing on is plain: no field formats it.
  (maskd-test--keys "C-e")
  (maskd-test--step "8" "Phone: 55512345678" 18))

(maskd-test--deftest prompt-takes-a-space
  "At the mask prompt SPC inserts a space: `phone GB' opens a GB phone field."
  (maskd-test--buffer "Tel: ")
  (goto-char (point-max))
  (local-set-key (kbd "C-c x") (if (eq maskd-test--driver 'eglot) #'maskd-eglot-field #'maskd-field))
  (maskd-test--keys "C-c x phone SPC GB RET")
  (let ((fields (maskd-test--daemon-fields)))
    (should (= 1 (length fields)))
    (should (equal "GB" (plist-get (car fields) :region)))))

(maskd-test--deftest undo-keeps-label
  "An undo of typing into a field after a label leaves the label as it was."
  (maskd-test--buffer "Tel: ")
  (maskd-test--call 'maskd-field "phone.us")
  (undo-boundary)
  (maskd-test--type "555")
  (maskd-test--expect "555" "Tel: +1 (555" 12)
  (maskd-test--step "C-/" "Tel: " 5)
  (should (equal "Tel: " (buffer-string))))

(defmacro maskd-test--with-eager-undo-timer (&rest body)
  "Run BODY with Emacs's undo timer firing at its first chance.
Emacs sets it 10 s after a change; on a loaded machine it may fire
while a key's formatting is awaited."
  (declare (indent 0))
  `(let ((undo-auto-current-boundary-timer nil))
     (unwind-protect
         (cl-letf (((symbol-function 'undo-auto--boundary-ensure-timer)
                    (lambda ()
                      (unless undo-auto-current-boundary-timer
                        (setq undo-auto-current-boundary-timer
                              (run-at-time 0 nil #'undo-auto--boundary-timer))))))
           ,@body)
       (when (timerp undo-auto-current-boundary-timer)
         (cancel-timer undo-auto-current-boundary-timer)))))

(maskd-test--deftest undo-timer-keeps-typing-one-step
  "Emacs's undo timer firing while a key's formatting is awaited splits
no typing: one undo takes back all of it."
  (maskd-test--buffer "Tel: ")
  (maskd-test--call 'maskd-field "phone.us")
  (undo-boundary)
  (maskd-test--with-eager-undo-timer
    (maskd-test--type "5551234"))
  (maskd-test--expect "typed" "Tel: +1 (555) 123-4" 19)
  (maskd-test--step "C-/" "Tel: " 5))

(maskd-test--deftest field-next-to-point
  "The field point touches is the field at point; an empty field takes point."
  (maskd-test--buffer "Phone: ")
  (maskd-test--call 'maskd-field "phone.us")
  (maskd-test--expect "open" "Phone: " 7)
  (maskd-test--keys "C-a")
  (maskd-test--keys "C-e")
  (should (plist-get (maskd-test--call 'maskd-info) :field))
  (maskd-test--call 'maskd-set-mask "card")
  (maskd-test--step "4" "Phone: 4" 8)
  (should (equal "Phone: 4" (buffer-string)))
  (should (maskd-test--call 'maskd-close))
  (should (null maskd--fields)))

(maskd-test--deftest open-takes-whole-number
  "Without a region, the field is the whole number at point, not its last run."
  (maskd-test--buffer "Tel: +1 (5551234567")
  (maskd-test--call 'maskd-field "phone.us")
  (maskd-test--expect "phone" "Tel: +1 (555) 123-4567" 22)
  (maskd-test--buffer "Card 4111 1111 1111 1111")
  (goto-char 10)
  (maskd-test--call 'maskd-field "card")
  (should (equal "Card 4111 1111 1111 1111" (buffer-string)))
  (should (equal "4111111111111111" (plist-get (maskd-field-state) :value))))

(maskd-test--deftest phone-region
  "`phone GB' opens the phone preset for the region's national numbers."
  (maskd-test--buffer "Tel: 01212345678")
  (maskd-test--call 'maskd-field "phone GB")
  (should (equal "Tel: 0121 234 5678" (buffer-string)))
  (should (equal "GB" (plist-get (maskd-field-state) :region)))
  (should (equal "fixed" (plist-get (maskd-field-state) :type))))

(maskd-test--deftest postal-region
  "`postal GB' opens the postal preset of the region; completion offers the codes."
  (maskd-test--buffer "Postcode: sw1a1aa")
  (maskd-test--call 'maskd-field "postal GB")
  (should (equal "Postcode: SW1A 1AA" (buffer-string)))
  (should (eq t (plist-get (maskd-field-state) :valid)))
  (let ((table (maskd--mask-table '("phone" "postal")
                                  (if (eq maskd-test--driver 'eglot)
                                      #'maskd-eglot--regions
                                    #'maskd-preset-regions))))
    (should (member "postal GB" (all-completions "postal G" table)))
    (should (= 181 (length (all-completions "postal " table))))
    (should (equal '("postal") (all-completions "pos" table)))))

(maskd-test--deftest unknown-preset
  "A bare word is a preset name; an unknown one lists the presets."
  (maskd-test--buffer "Tel: ")
  (let ((err (should-error (maskd-test--call 'maskd-field "phone.uk")
                           :type 'user-error)))
    (should (string-match-p
             "\\`\\[maskd\\] unknown preset 'phone.uk'; the presets are .*phone.us"
             (cadr err))))
  (should (null maskd--fields)))

;;;; Many lines at once

(defun maskd-test--count-requests (method body)
  "Run BODY, a function; return how many METHOD requests it sent."
  (let* ((count 0)
         (counter (lambda (_conn m &rest _)
                    (when (eq m method) (cl-incf count)))))
    (advice-add 'jsonrpc-request :before counter)
    (unwind-protect (funcall body)
      (advice-remove 'jsonrpc-request counter))
    count))

(maskd-test--deftest open-many-lines
  "A region over 1,000 lines opens a field on each in one request."
  (maskd-test--buffer
   (mapconcat (lambda (i) (format "  411111111111111  %s" (if (= i 3) "" "")))
              (number-sequence 1 1000) "\n"))
  (let* ((start (float-time))
         (requests (maskd-test--count-requests
                    :maskd/openFields
                    (lambda ()
                      (maskd-test--call 'maskd-field "card" (point-min) (point-max)))))
         (elapsed (- (float-time) start)))
    (princ (format "open-many-lines (%s): 1,000 fields opened in %.3f s\n"
                   maskd-test--driver elapsed))
    (should (= 1 requests)))
  (should (= 1000 (length maskd--fields)))
  (should (equal (mapconcat (lambda (_) "  4111 1111 1111 111  ")
                            (number-sequence 1 1000) "\n")
                 (buffer-string)))
  (goto-char (point-min))
  (forward-line 499)
  (search-forward "111  ")
  (backward-char 2)
  (let ((start (float-time)))
    (maskd-test--type "1")
    (princ (format "open-many-lines (%s): a key in line 500 formatted in %.3f s\n"
                   maskd-test--driver (- (float-time) start))))
  (should (equal "  4111 1111 1111 1111  "
                 (buffer-substring (line-beginning-position) (line-end-position))))
  (should (= 500 (line-number-at-pos)))
  (should (eq t (plist-get (maskd-field-state) :valid))))

(maskd-test--deftest open-lines-split-by-daemon
  "A region over lines: a field on each line's part, blank lines skipped."
  (maskd-test--buffer "Tel: 5551234567\n  2015550123  \n\n   \n3125550199 x")
  (goto-char (point-min))
  (forward-line 1)
  (let ((errors (maskd-test--call 'maskd-field "phone.us" (point) (- (point-max) 2))))
    (should (null errors)))
  (should (equal "Tel: 5551234567\n  +1 (201) 555-0123  \n\n   \n+1 (312) 555-0199 x"
                 (buffer-string)))
  (should (= 2 (length maskd--fields))))

(maskd-test--deftest open-at-point-widest-run
  "Without a region the daemon takes the formatted number whole, not the label."
  (maskd-test--buffer "Tel: +1 (555) 123-4567 x")
  (goto-char 11)
  (maskd-test--call 'maskd-field "phone.us")
  (should (equal "Tel: +1 (555) 123-4567 x" (buffer-string)))
  (let ((range (plist-get (maskd-field-state) :range)))
    (should (equal '(5 22) (list (plist-get (plist-get range :start) :character)
                                 (plist-get (plist-get range :end) :character))))))

;;;; The daemon's exit

(defvar maskd-test--shown nil
  "Messages shown in the echo area while recording, newest first.")

(defun maskd-test--record-message (format-string &rest args)
  "Record the message FORMAT-STRING with ARGS unless it is inhibited."
  (when (and format-string (not inhibit-message))
    (push (apply #'format-message format-string args) maskd-test--shown)))

(defmacro maskd-test--showing (&rest body)
  "Run BODY; return the messages it showed, oldest first."
  (declare (indent 0))
  `(let ((maskd-test--shown nil))
     (advice-add 'message :before #'maskd-test--record-message)
     (unwind-protect (progn ,@body)
       (advice-remove 'message #'maskd-test--record-message))
     (reverse maskd-test--shown)))

(defun maskd-test--kill ()
  "Kill the daemon as an out-of-memory kill would; return its connection."
  (let ((conn (maskd-test--connection)))
    (signal-process (jsonrpc--process conn) 'SIGKILL)
    conn))

(defun maskd-test--await-restart (old)
  "Wait until the connection OLD has been replaced by a running one."
  (let ((deadline (+ (float-time) 10)))
    (while (and (< (float-time) deadline)
                (or (process-live-p (jsonrpc--process old))
                    maskd--pending-restart
                    (let ((conn (maskd-test--connection)))
                      (and conn (eq conn old)))))
      (accept-process-output nil 0.02))
    ;; The restart, if any, is done from a timer or the next command.
    (accept-process-output nil 0.05)))

(maskd-test--deftest restart-after-kill
  "The daemon killed mid-typing: restarted, fields re-opened, typing formatted."
  (setq maskd--restarts nil)
  (when (boundp 'maskd-eglot--restarts) (setq maskd-eglot--restarts nil))
  (maskd-test--buffer "Card: \nTel: ")
  (maskd-test--open "card" 7 7)
  (goto-char 7)
  (maskd-test--type "4111")
  (goto-char (point-max))
  (maskd-test--open "phone.us" (point) (point))
  (maskd-test--type "555")
  (maskd-test--expect "555" "Card: 4111\nTel: +1 (555" 12 23)
  (let* ((old nil)
         (shown (maskd-test--showing
                  (setq old (maskd-test--kill))
                  (maskd-test--type "1234567")
                  (maskd-test--await-restart old))))
    (should (not (eq old (maskd-test--connection))))
    (maskd-test--expect "typed on" "Card: 4111\nTel: +1 (555) 123-4567" 22 33)
    (should (equal 1 (length shown)))
    (should (string-match-p "\\`\\[maskd\\] the daemon exited (killed by signal 9); \
.*restarted it and re-opened 2 fields\\'" (car shown))))
  (should (eq t (plist-get (maskd-field-state) :valid)))
  ;; The other field is a field still.
  (goto-char 11)
  (maskd-test--step "1" "Card: 4111 1\nTel: +1 (555) 123-4567" 12 12)
  (should (= 2 (length (maskd-test--daemon-fields)))))

(maskd-test--deftest restart-limit
  "After 3 restarts within a minute the fourth exit closes the fields."
  (setq maskd--restarts nil)
  (when (boundp 'maskd-eglot--restarts) (setq maskd-eglot--restarts nil))
  (maskd-test--field "" "phone.us")
  (maskd-test--type "5")
  (let ((shown (maskd-test--showing
                 (dotimes (_ 4)
                   (maskd-test--await-restart (maskd-test--kill))))))
    (should (equal 4 (length shown)))
    (should (string-match-p "restarted it" (nth 2 shown)))
    (should (string-match-p "\\`\\[maskd\\] the daemon exited (killed by signal 9), \
4 times within a minute: not restarting it; fields closed until you open one\\'"
                            (nth 3 shown))))
  (should (null maskd--fields))
  (maskd-test--step "5" "+1 (55" 6)
  ;; Opening a field starts a daemon again.
  (maskd-test--open "[000]" (point-max) (point-max))
  (maskd-test--step "7" "+1 (557" 7))

(ert-deftest maskd-test-eglot-reconnect-waits ()
  "A maskd command that connects a stopped daemon again waits for its answer.
Eglot's own wait, a number of seconds, ends at any process's output:
with a daemon slow to start and another process talking meanwhile,
opening a field still finds the daemon connected."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (let* ((dir (file-name-as-directory (make-temp-file "maskd-reconnect" t)))
         (file (expand-file-name "form.txt" dir))
         (slow (expand-file-name "slow-maskd" dir))
         (buffer nil)
         (chatty nil))
    (with-temp-file file (insert "Tel: "))
    (with-temp-file slow
      (insert "#!/bin/sh\nsleep 0.5\nexec "
              (shell-quote-argument maskd-test-binary) " \"$@\"\n"))
    (set-file-modes slow #o755)
    (unwind-protect
        (let ((default-directory dir))
          (setq buffer (find-file-noselect file))
          (set-buffer buffer)
          (eglot '(text-mode) (eglot--current-project) 'maskd-eglot-server
                  (list slow) "plaintext")
          (maskd-eglot-field "phone.us" (point-max) (point-max))
          (let ((eglot-autoshutdown nil))
            (eglot-shutdown (eglot-current-server)))
          (should-not (eglot-current-server))
          (let ((eglot-sync-connect 3))
            (setq chatty (start-process "maskd-test-chatty" nil "sh" "-c"
                                        "sleep 0.1; echo ."))
            (set-process-query-on-exit-flag chatty nil)
            (maskd-eglot-field "phone.us" (point-max) (point-max)))
          (should (eglot-managed-p))
          (goto-char (point-max))
          (insert "5")
          (maskd-eglot-send-safely)
          (maskd-eglot-await eglot--versioned-identifier)
          (should (equal "Tel: +1 (5" (buffer-string))))
      (when (process-live-p chatty)
        (delete-process chatty))
      (when (and buffer (buffer-live-p buffer))
        (with-current-buffer buffer
          (when (eglot-current-server)
            (let ((eglot-autoshutdown nil))
              (ignore-errors (eglot-shutdown (eglot-current-server)))))
          (set-buffer-modified-p nil))
        (kill-buffer buffer))
      (delete-directory dir t))))

(ert-deftest maskd-test-eglot-restart-waits-for-fields ()
  "Keys typed as eglot restarts a killed daemon reach open fields.
The daemon is slow to start and another process talks meanwhile, so
eglot's own wait (a number of seconds, ended by any process's
output) would return before the fields are open again."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (let* ((dir (file-name-as-directory (make-temp-file "maskd-restart" t)))
         (slow (expand-file-name "slow-maskd" dir))
         (chatty nil))
    (with-temp-file slow
      (insert "#!/bin/sh\nsleep 0.5\nexec "
              (shell-quote-argument maskd-test-binary) " \"$@\"\n"))
    (set-file-modes slow #o755)
    (unwind-protect
        (let ((maskd-test-binary slow))
          (maskd-test--run
           'eglot
           (lambda ()
             (setq maskd-eglot--restarts nil)
             (maskd-test--field "Tel: " "phone.us" 6 6)
             (maskd-test--type "555")
             (maskd-test--expect "555" "Tel: +1 (555" 12)
             (let ((old (maskd-test--connection))
                   (eglot-sync-connect 3))
               (setq chatty (start-process "maskd-test-chatty" nil "sh" "-c"
                                           "sleep 0.1; echo ."))
               (set-process-query-on-exit-flag chatty nil)
               (maskd-test--kill)
               ;; The exit is noticed and the restart made here, as
               ;; Emacs waits for input.
               (while (process-live-p (jsonrpc--process old))
                 (accept-process-output nil 0.02))
               (accept-process-output nil 0.05)
               (maskd-test--type "1234567")
               (should-not (eq old (maskd-test--connection)))
               (maskd-test--expect "typed on" "Tel: +1 (555) 123-4567" 22)))))
      (when (process-live-p chatty)
        (delete-process chatty))
      (delete-directory dir t))))

(ert-deftest maskd-test-restart-fails ()
  "A daemon that exits and whose restart dies at start-up: one line, no loop."
  (maskd-test--run
   'jsonrpc
   (lambda ()
     (setq maskd--restarts nil)
     (maskd-test--field "" "phone.us")
     (maskd-test--type "55")
     (let* ((maskd-command (list (executable-find "false")))
            (shown (maskd-test--showing
                     (maskd-test--await-restart (maskd-test--kill))
                     (let ((deadline (+ (float-time) 0.5)))
                       (while (< (float-time) deadline)
                         (accept-process-output nil 0.05))))))
       (should (equal 1 (length shown)))
       (should (string-match-p "\\`\\[maskd\\] the daemon exited (killed by signal 9) \
and did not restart: could not start .*false: .*; fields closed until you open one\\'"
                               (car shown)))
       (should (null maskd--fields))
       (should (null maskd--connection))
       (should (= 1 (length maskd--restarts))))
     (maskd-test--step "5" "+1 (555" 7))))

(ert-deftest maskd-test-eglot-bad-command ()
  "Under eglot, a daemon that dies at start-up is eglot's one error, and no loop."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (maskd-test--run
   'eglot
   (lambda ()
     (let* ((file (make-temp-file "maskd-bad" nil ".txt"))
            (buffer (find-file-noselect file))
            (err nil)
            (shown nil))
       (push buffer maskd-test--buffers)
       (with-current-buffer buffer
         (let ((default-directory (file-name-directory file)))
           (setq shown
                 (maskd-test--showing
                   (setq err (should-error
                              (eglot '(text-mode) (eglot--current-project)
                                      'eglot-lsp-server (list (executable-find "false"))
                                      "plaintext")))
                   (let ((deadline (+ (float-time) 0.5)))
                     (while (< (float-time) deadline)
                       (accept-process-output nil 0.05))))))
         (should err)
         (should-not (eglot-managed-p))
         ;; eglot's lines about the attempt; none comes after it.
         (should (<= (length shown) 2))
         (should-not (seq-some (lambda (m) (string-match-p "Reconnect\\|maskd" m)) shown))
         (set-buffer-modified-p nil))
       (delete-file file)))))

(ert-deftest maskd-test-bad-command ()
  "A daemon that cannot start, or dies at start-up: one line, no restart."
  (maskd-test--run
   'jsonrpc
   (lambda ()
     (setq maskd--restarts nil)
     (maskd-shutdown)
     (maskd-test--buffer "")
     (let ((maskd-command '("/nonexistent/maskd")))
       (should (equal "[maskd] cannot run /nonexistent/maskd: no such program \
\(set `maskd-command')"
                      (cadr (should-error (maskd-field "[000]") :type 'user-error)))))
     (let* ((maskd-command (list (executable-find "false")))
            (err nil)
            (shown (maskd-test--showing
                     (setq err (should-error (maskd-field "[000]") :type 'user-error))
                     (let ((deadline (+ (float-time) 0.5)))
                       (while (< (float-time) deadline)
                         (accept-process-output nil 0.05))))))
       (should (string-match-p "\\`\\[maskd\\] could not start .*false: [^\n]*\
(see `maskd-command')\\'" (cadr err)))
       (should (null shown))
       (should (null maskd--connection))
       (should (null maskd--restarts))))))

;;;; Emacs conveniences

(ert-deftest maskd-test-mode-line-and-keys ()
  "The mode line shows the field's state; the keys are under C-c ,."
  (maskd-test--run
   'jsonrpc
   (lambda ()
     (maskd-test--buffer "Tel: ")
     (maskd-field "phone.us")
     (should (equal " maskd[incomplete]" (maskd-mode-line)))
     (maskd-test--type "5551234567")
     (should (equal " maskd[valid]" (maskd-mode-line)))
     (maskd-test--keys "C-a")
     (should (equal " maskd" (maskd-mode-line)))
     (should (eq #'maskd-field (lookup-key maskd-mode-map (kbd "C-c , f"))))
     (should (eq #'maskd-list-fields (lookup-key maskd-mode-map (kbd "C-c , l")))))))

(maskd-test--deftest list-fields
  "The list of fields: one line each, with its place and state."
  (maskd-test--buffer "Tel: \nCard: 4111111111111111")
  (maskd-test--call 'maskd-field "phone.us" 6 6)
  (maskd-test--call 'maskd-field "card" 13 (point-max))
  (let ((states (maskd-test--call 'maskd-list-fields))
        (ids (mapcar #'car (reverse maskd--fields))))
    (should (= 2 (length states)))
    (with-current-buffer "*maskd fields*"
      (should (equal (format "Fields of %s: 2\n1:5  %s  incomplete \n\
2:6  %s  valid      4111 1111 1111 1111\n" (buffer-name (car maskd-test--buffers))
                             (nth 0 ids) (nth 1 ids))
                     (buffer-substring-no-properties (point-min) (point-max)))))))

(ert-deftest maskd-test-autoloads ()
  "Every command has an autoload cookie."
  (with-temp-buffer
    (dolist (file '("maskd.el" "maskd-eglot.el"))
      (insert-file-contents (expand-file-name (concat "../" file) maskd-test--dir)))
    (goto-char (point-min))
    (let ((missing nil))
      (while (re-search-forward "^(defun \\(maskd[-a-z]*\\) " nil t)
        (let ((name (match-string 1))
              (cookie (save-excursion
                        (forward-line -1)
                        (looking-at ";;;###autoload"))))
          (when (and (save-excursion (re-search-forward "^  (interactive" (save-excursion (forward-sexp) (point)) t))
                     (not (string-match-p "--" name))
                     (not cookie))
            (push name missing))))
      (should (null missing)))))

(ert-deftest maskd-test-rules-autoloads ()
  "With only the package's autoloads, a file its folder's rules reach attaches.
A file of a folder without rules starts no daemon."
  (let* ((root (maskd-test--rules-workspace))
         (plain (file-name-as-directory (make-temp-file "maskd-plain" t)))
         (lisp (file-name-as-directory (make-temp-file "maskd-autoloads" t)))
         (script
          `(progn
             (setq maskd-command (list ,maskd-test-binary))
             (find-file ,(expand-file-name "plain.txt" plain))
             (princ (format "plain: %S %d\n" (bound-and-true-p maskd-mode)
                            (length (process-list))))
             (find-file ,(expand-file-name "people/ann.yaml" root))
             (let ((deadline (+ (float-time) 20)))
               (while (and (not (string-match-p "(201)" (buffer-string)))
                           (< (float-time) deadline))
                 (accept-process-output nil 0.02)))
             (princ (format "ann: %S %S\n" maskd-mode (buffer-string)))
             (maskd-shutdown))))
    (with-temp-file (expand-file-name "plain.txt" plain)
      (insert "phone: 2015550123\n"))
    (copy-file (expand-file-name "../maskd.el" maskd-test--dir) lisp)
    (require 'autoload)
    (make-directory-autoloads lisp (expand-file-name "maskd-autoloads.el" lisp))
    (with-temp-buffer
      (should (eq 0 (call-process "emacs" nil t nil "--batch" "-Q" "-L" lisp
                                  "-l" (expand-file-name "maskd-autoloads.el" lisp)
                                  "--eval" (prin1-to-string script))))
      (let ((out (buffer-string)))
        (should (string-match-p "^plain: nil 0$" out))
        (should (string-match-p
                 (regexp-quote "ann: t \"name: Ann\nphone: +1 (201) 555-0123\ncard: 4111111111111111\nzip: 123456789\n\"")
                 out))))))

(ert-deftest maskd-test-eglot-eldoc-one-line ()
  "Under eglot, ElDoc on a field is one line, not the daemon's hover."
  :tags '(eglot)
  (skip-unless (maskd-test--eglot-available-p))
  (maskd-test--run
   'eglot
   (lambda ()
     (maskd-test--field "" "phone.us")
     (maskd-test--type "555")
     (should (memq #'maskd-eglot-eldoc-function eldoc-documentation-functions))
     (should-not (memq #'eglot-hover-eldoc-function eldoc-documentation-functions))
     (let ((doc nil))
       (maskd-eglot-eldoc-function (lambda (string &rest _) (setq doc string)))
       (should (equal "f1: 555 [incomplete, next digit]  mask +1 ([000]) [000]-[0000]  to fill ) ___-____"
                      (replace-regexp-in-string "\\`f[0-9]+" "f1" doc)))))))

;;;; Field rules: fields that open themselves

(defconst maskd-test-rules-file
  "{\"rules\": [{\"files\": \"**/*.yaml\", \"match\": \"^\\\\s*phone:\\\\s*(.*)$\",
             \"mask\": {\"preset\": \"phone.us\"}}]}"
  "The workspace's `.maskd.json' of the rules test: phone values of YAML files.")

(defconst maskd-test-rules
  '((:files "*.yaml" :match "^card: *(.*)$" :mask (:preset "card")))
  "The plugin's own rules of the rules test: card values of YAML files.")

(defconst maskd-test-rules-text
  "name: Ann\nphone: 2015550123\ncard: 4111111111111111\nzip: 123456789\n"
  "What the files of the rules test hold on disk.")

(defun maskd-test--wait-for (label predicate)
  "Wait until PREDICATE returns non-nil, reading the daemon's messages.
Fail, naming LABEL, when it has not within 20 seconds."
  (let ((deadline (+ (float-time) 20)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (should (equal (list label t) (list label (and (funcall predicate) t))))))

(defun maskd-test--rules-workspace ()
  "Make a workspace folder with a `.maskd.json' and two files; return it."
  (let ((root (file-name-as-directory
               (file-truename (make-temp-file "maskd-rules" t)))))
    (make-directory (expand-file-name "people" root))
    (with-temp-file (expand-file-name ".maskd.json" root)
      (insert maskd-test-rules-file))
    (dolist (file '("people/ann.yaml" "notes.txt"))
      (with-temp-file (expand-file-name file root)
        (insert maskd-test-rules-text)))
    root))

(defun maskd-test--visit (file)
  "Visit FILE as a person does, attached by its rules as the driver does it."
  (let ((buffer (find-file-noselect file)))
    (push buffer maskd-test--buffers)
    (switch-to-buffer buffer)
    (buffer-enable-undo)
    (when (eq maskd-test--driver 'eglot)
      (maskd-eglot-ensure))
    (should (if (eq maskd-test--driver 'eglot) (eglot-managed-p) maskd-mode))
    buffer))

(defun maskd-test--rules-change ()
  "Set `maskd-rules' anew: the running daemon tries the buffer's lines again.
Right after the open, whose formatting the buffer has echoed: the
daemon's answer comes at a version of the plugin's own edits."
  (customize-set-variable
   'maskd-rules (append maskd-test-rules
                        '((:files "*.yaml" :match "^zip: *(.*)$" :mask "[00000]-[0000]"))))
  (maskd-test--wait-for
   "the new rules"
   (lambda ()
     (equal "name: Ann\nphone: +1 (201) 555-0123\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n"
            (buffer-string)))))

(defun maskd-test--rules-scenario ()
  "Rules from the setting and a `.maskd.json' format a file on open, and after."
  (let* ((root (maskd-test--rules-workspace))
         (default-directory root)
         (formatted "name: Ann\nphone: +1 (201) 555-0123\ncard: 4111 1111 1111 1111\nzip: 123456789\n"))
    ;; The rules reach the daemon when it starts: start one now.
    (when (maskd--running-p)
      (maskd-shutdown))
    (maskd-test--visit (expand-file-name "people/ann.yaml" root))
    (maskd-test--wait-for "formatted on open"
                          (lambda () (equal formatted (buffer-string))))
    (should (equal (list (list (concat (maskd--file-uri root) "/.maskd.json") 0)
                         (list "initializationOptions" 0))
                   (mapcar (lambda (state)
                             (let ((rule (plist-get state :rule)))
                               (list (plist-get rule :source)
                                     (plist-get rule :index))))
                           (maskd-test--daemon-fields))))
    (should (= 2 (length maskd--fields)))
    ;; New `maskd-rules' reach the running daemon.
    (maskd-test--rules-change)
    (should (= 3 (length maskd--fields)))
    ;; A digit typed into a rule's field is formatted.
    (goto-char (point-min))
    (forward-line 2)
    (backward-char 1)
    (maskd-test--step "DEL" "name: Ann\nphone: +1 (201) 555-012\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n" 23)
    (maskd-test--step "9" "name: Ann\nphone: +1 (201) 555-0129\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n" 24)
    ;; A field closed stays closed: typing on its line opens none again.
    (forward-line 1)
    (end-of-line)
    (backward-char 3)
    (maskd-test--call 'maskd-close)
    (maskd-test--step "C-e 5" "name: Ann\nphone: +1 (201) 555-0129\ncard: 4111 1111 1111 11115\nzip: 12345-6789\n" 26)
    (should (equal '("+1 (201) 555-0129" "12345-6789")
                   (mapcar (lambda (s) (plist-get s :text)) (maskd-test--daemon-fields))))
    (should (equal '("+1 (201) 555-0129" "12345-6789")
                   (sort (mapcar (lambda (f) (plist-get (nth 1 f) :text)) maskd--fields)
                         #'string<)))
    ;; Both rules' globs leave a text file alone.
    (maskd-test--visit (expand-file-name "notes.txt" root))
    (should (equal nil (maskd-test--daemon-fields)))
    (should (equal maskd-test-rules-text (buffer-string)))
    ;; A `.maskd.json' saved in Emacs: its new rule reaches the open text file.
    (when (eq maskd-test--driver 'jsonrpc)
      (let ((notes (current-buffer)))
        (maskd-test--visit (expand-file-name ".maskd.json" root))
        (goto-char (point-min))
        (should (search-forward "**/*.yaml" nil t))
        (replace-match "**/*.{yaml,txt}" t t)
        (save-buffer)
        (with-current-buffer notes
          (maskd-test--wait-for
           "the saved rules"
           (lambda ()
             (equal "name: Ann\nphone: +1 (201) 555-0123\ncard: 4111111111111111\nzip: 123456789\n"
                    (buffer-string)))))))
    ;; One undo takes back the formatting a file opened with: its rule
    ;; fields close, and typing on their lines formats nothing.
    (with-temp-file (expand-file-name "people/bob.yaml" root)
      (insert "phone: 2015550123\n"))
    (maskd-test--visit (expand-file-name "people/bob.yaml" root))
    (maskd-test--wait-for "bob formatted on open"
                          (lambda () (equal "phone: +1 (201) 555-0123\n" (buffer-string))))
    (goto-char (point-max))
    (maskd-test--keys "C-/")
    (should (equal "phone: 2015550123\n" (buffer-string)))
    (should (equal nil (maskd-test--daemon-fields)))
    (should (equal nil maskd--fields))
    (goto-char (point-min))
    (maskd-test--step "C-e 4" "phone: 20155501234\n" 18)
    (should (equal nil (maskd-test--daemon-fields)))
    ;; A file of another folder: it joins the workspace, and its `.maskd.json' applies.
    (let ((other (file-name-as-directory
                  (file-truename (make-temp-file "maskd-rules" t)))))
      (with-temp-file (expand-file-name ".maskd.json" other)
        (insert "{\"rules\": [{\"files\": \"*.env\", \"match\": \"^CARD=(.*)$\", \"mask\": {\"preset\": \"card\"}}]}"))
      (with-temp-file (expand-file-name ".env" other)
        (insert "CARD=4111111111111111\n"))
      (let ((default-directory other))
        (maskd-test--visit (expand-file-name ".env" other)))
      (maskd-test--wait-for "the other folder's rules"
                            (lambda () (equal "CARD=4111 1111 1111 1111\n" (buffer-string))))
      (should (equal (list (concat (maskd--file-uri other) "/.maskd.json"))
                     (mapcar (lambda (state) (plist-get (plist-get state :rule) :source))
                             (maskd-test--daemon-fields)))))))

(maskd-test--deftest rules
  "Rules from `maskd-rules' and from a `.maskd.json' open their fields.
Formatted on open, formatted as a person types, closed for good;
a file their globs exclude is left as it is."
  (let ((maskd-attach-by-rules (eq maskd-test--driver 'jsonrpc))
        (servers nil))
    (customize-set-variable 'maskd-rules maskd-test-rules)
    (unwind-protect
        (progn
          (maskd-test--rules-scenario)
          (when (eq maskd-test--driver 'eglot)
            (dolist (b maskd-test--buffers)
              (with-current-buffer b
                (cl-pushnew (eglot-current-server) servers)))))
      (customize-set-variable 'maskd-rules nil)
      (dolist (server (delq nil servers))
        (ignore-errors (eglot-shutdown server)))
      ;; The next tests' daemon starts without the rules.
      (when (maskd--running-p)
        (maskd-shutdown)))))

(maskd-test--deftest rules-restart
  "A daemon that exits: the rules open their fields again, the person's too.
The person's field keeps its place when a rule's field took its id."
  (let* ((root (maskd-test--rules-workspace))
         (default-directory root)
         (maskd-attach-by-rules (eq maskd-test--driver 'jsonrpc))
         (servers nil))
    (setq maskd--restarts nil)
    (when (boundp 'maskd-eglot--restarts) (setq maskd-eglot--restarts nil))
    (when (maskd--running-p)
      (maskd-shutdown))
    (with-temp-file (expand-file-name "people/cy.yaml" root)
      (insert "phone: 2015550123\ncode: 12\n"))
    (unwind-protect
        (progn
          (maskd-test--visit (expand-file-name "people/cy.yaml" root))
          (push (maskd-test--connection) servers)
          (maskd-test--wait-for "formatted on open"
                                (lambda () (equal "phone: +1 (201) 555-0123\ncode: 12\n"
                                                  (buffer-string))))
          ;; The person's field (f2), then a line a rule's field opens on (f3).
          (goto-char (point-min))
          (search-forward "code: ")
          (maskd-test--open "[00]-[00]" (point) (line-end-position))
          (goto-char (point-max))
          ;; The label, then the number key by key: a line yanked whole is kept as it stands (an undo looks
          ;; the same).
          (kill-new "phone: ")
          (maskd-test--keys "C-y")
          (maskd-test--type "2015550124")
          (maskd-test--wait-for
           "the typed line formatted"
           (lambda () (equal "phone: +1 (201) 555-0123\ncode: 12\nphone: +1 (201) 555-0124"
                             (buffer-string))))
          (let ((old (maskd-test--kill)))
            (maskd-test--await-restart old)
            (push (maskd-test--connection) servers)
            (should (not (eq old (maskd-test--connection)))))
          ;; The new daemon's rules took f2 for the second phone line.
          (maskd-test--wait-for "fields again" (lambda () (= 3 (length maskd--fields))))
          (goto-char (point-min))
          (search-forward "code: 12")
          (maskd-test--step "3" "phone: +1 (201) 555-0123\ncode: 12-3\nphone: +1 (201) 555-0124" 10)
          (should (equal '("+1 (201) 555-0123" "12-3" "+1 (201) 555-0124")
                         (mapcar (lambda (s) (plist-get s :text)) (maskd-test--daemon-fields))))
          (should (equal '(t nil t)
                         (mapcar (lambda (s) (and (plist-get s :rule) t))
                                 (maskd-test--daemon-fields)))))
      (when (eq maskd-test--driver 'eglot)
        (dolist (server (delq nil servers))
          (ignore-errors (eglot-shutdown server)))))))

;;;; Running

;;;; A field's whole line: kill, undo, redo, change, join, yank

(defconst maskd-test--tel "Tel: +1 (201) 555-0123")
(defconst maskd-test--card "Card: 3782 822463 10005")

(defun maskd-test--lines (&rest lines)
  "LINES joined with line breaks."
  (mapconcat #'identity lines "\n"))

(defun maskd-test--settled ()
  "Wait until the daemon has handled every change sent so far.
Its answer to a request comes after the didFormat of every change
before it; the fields it has are returned."
  (maskd-test--daemon-fields))

(defun maskd-test--at (label text line column)
  "Expect buffer TEXT, point on LINE (from 0) at COLUMN, after LABEL."
  (maskd-test--settled)
  (should (equal (list label text line column)
                 (list label (buffer-string) (1- (line-number-at-pos))
                       (current-column)))))

(defun maskd-test--placeholders ()
  "The placeholders drawn in the current buffer, as (POSITION TEXT)."
  (let (out)
    (dolist (ov (overlays-in (point-min) (point-max)))
      (when (and (overlay-get ov 'maskd-field) (overlay-get ov 'after-string)
                 (not (equal "" (overlay-get ov 'after-string))))
        (push (list (overlay-start ov) (overlay-get ov 'after-string)) out)))
    out))

(defun maskd-test--form ()
  "Name, a typed phone.us field after `Tel: ', a card line; point after the phone."
  (maskd-test--buffer (maskd-test--lines "Name: Bob" "Tel: " maskd-test--card))
  (goto-char (point-min))
  (forward-line 1)
  (end-of-line)
  (maskd-test--open "phone.us" (point) (point))
  (maskd-test--type "2015550123")
  (maskd-test--at "typing" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card)
                  1 22))

(maskd-test--deftest kill-field-line
  "Killing a field's line and undoing gives it back exactly; it is not drawn."
  (maskd-test--form)
  (maskd-test--keys "C-a C-k C-k")
  (maskd-test--at "kill" (maskd-test--lines "Name: Bob" maskd-test--card) 1 0)
  (should (equal nil (maskd-test--placeholders)))
  (maskd-test--keys "C-_")
  (maskd-test--at "undo" (maskd-test--lines "Name: Bob" "" maskd-test--card) 1 0)
  (maskd-test--keys "C-_")
  (maskd-test--at "undo twice" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card) 1 0)
  (maskd-test--keys "C-M-_")
  (maskd-test--at "redo" (maskd-test--lines "Name: Bob" "" maskd-test--card) 1 0)
  (maskd-test--keys "C-M-_")
  (maskd-test--at "redo twice" (maskd-test--lines "Name: Bob" maskd-test--card) 1 0)
  (should (equal nil (maskd-test--placeholders))))

(maskd-test--deftest kill-half-typed-field-line
  "Killing the line of a half-typed field draws no placeholder on the next line."
  (maskd-test--buffer (maskd-test--lines "Name: Bob" "Tel: " maskd-test--card))
  (goto-char (point-min))
  (forward-line 1)
  (end-of-line)
  (maskd-test--open "phone.us" (point) (point))
  (maskd-test--type "201")
  (should (equal (maskd-test--lines "Name: Bob" "Tel: +1 (201" maskd-test--card) (buffer-string)))
  (should (equal 1 (length (maskd-test--placeholders))))
  ;; The didFormat alone (no maskd/fields asked) forgets the field: its `closed'.
  (maskd-test--keys "C-a C-k C-k")
  (should (equal (maskd-test--lines "Name: Bob" maskd-test--card) (buffer-string)))
  (should (equal nil (maskd-test--placeholders)))
  (should (equal nil maskd--fields))
  (maskd-test--keys "C-/")
  (maskd-test--keys "C-/")
  (maskd-test--at "undo" (maskd-test--lines "Name: Bob" "Tel: +1 (201" maskd-test--card) 1 0)
  (should (equal nil (maskd-test--placeholders)))
  (should (equal nil (maskd-test--daemon-fields))))

(maskd-test--deftest change-field-line
  "Killing a field line's text, then typing a sentence or digits, keeps them."
  (maskd-test--form)
  (maskd-test--keys "C-a C-k")
  (maskd-test--type "Hello world")
  (maskd-test--at "typing" (maskd-test--lines "Name: Bob" "Hello world" maskd-test--card) 1 11)
  (maskd-test--keys "C-a C-k")
  (maskd-test--type "Fax 2015550199")
  (maskd-test--at "typing digits" (maskd-test--lines "Name: Bob" "Fax 2015550199" maskd-test--card) 1 14)
  (maskd-test--keys "C-_")
  (maskd-test--keys "C-_")
  (maskd-test--keys "C-_")
  (maskd-test--keys "C-_")
  (maskd-test--at "undo" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card) 1 0))

(maskd-test--deftest join-field-line
  "Joining a field's line with the next and the one before keeps the text."
  (maskd-test--form)
  (maskd-test--keys "C-n M-^")
  (maskd-test--at "join" (maskd-test--lines "Name: Bob" (concat maskd-test--tel " " maskd-test--card)) 1 22)
  (maskd-test--keys "C-_")
  ;; Point goes where Emacs's own undo puts it, with or without the plugin.
  (maskd-test--at "undo" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card) 2 22)
  (maskd-test--keys "C-p M-^")
  (maskd-test--at "join onto" (maskd-test--lines (concat "Name: Bob " maskd-test--tel) maskd-test--card) 0 9)
  (maskd-test--keys "C-_")
  (maskd-test--at "undo again" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card) 1 22)
  (maskd-test--keys "C-M-_")
  (maskd-test--at "redo" (maskd-test--lines (concat "Name: Bob " maskd-test--tel) maskd-test--card) 0 9))

(maskd-test--deftest yank-field-line
  "Yanking a killed field line puts the same text; undo takes it back."
  (maskd-test--form)
  (maskd-test--keys "C-a C-k C-k C-y C-y")
  (maskd-test--at "yank" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--tel maskd-test--card) 3 0)
  (maskd-test--keys "C-_")
  (maskd-test--at "undo" (maskd-test--lines "Name: Bob" maskd-test--tel maskd-test--card) 2 0))

(maskd-test--deftest redo-after-undo
  "Undo twice then redo twice after typing into a new line reaches every state."
  (maskd-test--buffer "Name: Bob")
  (maskd-test--keys "RET")
  (maskd-test--type "UK: ")
  (maskd-test--open "{\"preset\":\"phone\",\"region\":\"GB\"}" (point) (point))
  (maskd-test--type "02079460958")
  (let ((typed (buffer-string)))
    (should (equal (maskd-test--lines "Name: Bob" "UK: 020 7946 0958") typed))
    (maskd-test--keys "C-_")
    (maskd-test--at "undo" (maskd-test--lines "Name: Bob" "UK: ") 1 4)
    (maskd-test--keys "C-_")
    (maskd-test--at "undo twice" (maskd-test--lines "Name: Bob" "") 1 0)
    (maskd-test--keys "C-M-_")
    (maskd-test--at "redo" (maskd-test--lines "Name: Bob" "UK: ") 1 0)
    (maskd-test--keys "C-M-_")
    (should (equal typed (buffer-string)))))

;;;; Generated line commands against plain Emacs

(defconst maskd-test--line-commands
  ["C-a C-k C-k" "C-S-<backspace>" "C-y" "C-x C-t" "M-^" "C-a C-o" "C-a RET" "C-x C-o"
   "C-a C-SPC C-n C-w" "C-a C-SPC C-n M-w" "C-a C-SPC C-n C-u 2 C-x TAB"
   "C-x h M-x sort-lines RET" "C-_" "C-_" "C-_" "C-M-_" "C-M-_" "C-n" "C-p" "M-<" "M->"]
  "Commands that move, join, split, sort or indent whole lines, and undo them.")

(defun maskd-test--press-as-person (keys last)
  "Press KEYS (as for `kbd') after the command LAST; return the new last.
An error the command signals ends it, as in the command loop, and is
returned instead: (error SYMBOL)."
  (setq this-command last)
  (condition-case err
      (progn (execute-kbd-macro (kbd keys))
             last-command)
    (error (list 'error (car err)))))

(cl-defstruct (maskd-test--side (:constructor maskd-test--side (buffer)))
  "One buffer of a generated run: it kills and yanks from its own ring and
continues its own chain of undos (`pending-undo-list' is global), as if
alone, after its own last command."
  buffer last ring pending)

(defun maskd-test--plain-copy (with)
  "A buffer maskd does not know holding the text of WITH, point alike."
  (let ((without (generate-new-buffer "maskd-test-plain")))
    (push without maskd-test--buffers)
    (with-current-buffer without
      (insert (with-current-buffer with (buffer-string)))
      (text-mode)
      (goto-char (with-current-buffer with (point)))
      (buffer-enable-undo)
      (setq buffer-undo-list nil))
    without))

(defun maskd-test--press-on (side keys &optional at after)
  "Press KEYS in SIDE's buffer, at AT when given, as a person would.
AFTER, when given, runs next (the daemon's formatting awaited).  Return
the text, point and whether the command failed."
  (switch-to-buffer (maskd-test--side-buffer side))
  (when at (goto-char at))
  (deactivate-mark)
  (setq kill-ring (maskd-test--side-ring side)
        kill-ring-yank-pointer kill-ring
        pending-undo-list (maskd-test--side-pending side))
  (let ((last (maskd-test--side-last side)))
    (setf (maskd-test--side-last side)
          (maskd-test--press-as-person keys (and (symbolp last) last))))
  (setf (maskd-test--side-ring side) kill-ring
        (maskd-test--side-pending side) pending-undo-list)
  (when after (funcall after))
  (list (buffer-string) (point) (consp (maskd-test--side-last side))))

(defun maskd-test--generated-lines (seed steps)
  "Run STEPS commands drawn with SEED on the form and on a plain copy.
After each, both buffers hold the same text with point at the same
place, and a command that fails fails in both: maskd never changes
what such a command made."
  (maskd-test--form)
  (let* ((with (current-buffer))
         (form (maskd-test--side with))
         (plain (maskd-test--side (maskd-test--plain-copy with)))
         (done nil))
    (random (format "maskd-%d" seed))
    (setq buffer-undo-list nil)
    (dotimes (step steps)
      (let* ((command (aref maskd-test--line-commands
                            (random (length maskd-test--line-commands))))
             (got (maskd-test--press-on form command nil
                                        (lambda () (maskd-test--sync) (maskd-test--settled))))
             (want (maskd-test--press-on plain command)))
        (push command done)
        (switch-to-buffer with)
        (should (equal (list seed (1+ step) (string-join (reverse done) " | ") want)
                       (list seed (1+ step) (string-join (reverse done) " | ") got)))))))

(maskd-test--deftest generated-line-commands
  "Seeded line commands on a form with fields give the text plain Emacs gives."
  (dolist (seed (number-sequence 1 10))
    (maskd-test--generated-lines seed 25)))

;;;; Generated commands within lines against plain Emacs

(defconst maskd-test--char-commands
  ["C-d" "DEL" "M-d" "M-DEL" "C-k" "M-u" "M-l" "M-c" "C-y" "x" "SPC" "C-_" "C-_" "C-M-_"]
  "Commands within lines, and undo and redo.
Not the transpositions: `C-t' and `M-t' make two changes, of which one
may type into a field while the two together reach beyond it.")

(defun maskd-test--place (text offset)
  "The line and column (from 0) of character OFFSET of TEXT."
  (let ((before (substring text 0 offset)))
    (list (cl-count ?\n before)
          (- offset (1+ (or (cl-position ?\n before :from-end t) -1))))))

(defun maskd-test--change-of (keys last ring scratch)
  "Where KEYS after the command LAST, with kill ring RING, changes the buffer.
Run on a copy in buffer SCRATCH (shown in the selected window, where a
keyboard macro runs its commands) and diffed as a plugin diffs (common
prefix, then common suffix): (FROM TO TEXT), FROM and TO as (LINE
COLUMN) in the old text, or nil when nothing changes."
  (let ((old (buffer-string))
        (at (point))
        (buffer (current-buffer))
        new)
    (switch-to-buffer scratch)
    (erase-buffer)
    (insert old)
    (goto-char at)
    ;; A copy: a kill appended to the last one changes the ring's first cell.
    (let* ((kill-ring (copy-sequence ring))
           (kill-ring-yank-pointer kill-ring))
      (maskd-test--press-as-person keys last))
    (setq new (buffer-string))
    (switch-to-buffer buffer)
    (unless (equal old new)
      (let ((p 0)
            (q 0))
        (while (and (< p (length old)) (< p (length new)) (eq (aref old p) (aref new p)))
          (setq p (1+ p)))
        (while (and (< q (- (length old) p)) (< q (- (length new) p))
                    (eq (aref old (- (length old) 1 q)) (aref new (- (length new) 1 q))))
          (setq q (1+ q)))
        (list (maskd-test--place old p) (maskd-test--place old (- (length old) q))
              (substring new p (- (length new) q)))))))

(defun maskd-test--types-into (fields change)
  "Whether CHANGE lies within one of the FieldStates FIELDS on one line."
  (pcase-let ((`((,line ,from) (,to-line ,to) ,text) change))
    (and (= line to-line)
         (not (string-search "\n" text))
         (seq-some (lambda (f)
                     (let* ((range (plist-get f :range))
                            (start (plist-get range :start))
                            (end (plist-get range :end)))
                       (and (= line (plist-get start :line) (plist-get end :line))
                            (<= (plist-get start :character) from)
                            (<= to (plist-get end :character)))))
                   fields))))

(defun maskd-test--generated-chars (seed steps)
  "Run STEPS commands within lines drawn with SEED, point anywhere.
A command whose change lies within a field (typing into it, which maskd
formats on purpose) is drawn again; after every other command, and every
undo and redo, the form and a plain copy hold the same text with point
at the same place."
  (maskd-test--form)
  (let* ((with (current-buffer))
         (form (maskd-test--side with))
         (plain (maskd-test--side (maskd-test--plain-copy with)))
         (scratch (generate-new-buffer "maskd-test-scratch"))
         (fields (maskd-test--settled))
         (done nil)
         (step 0))
    (random (format "maskd-chars-%d" seed))
    (push scratch maskd-test--buffers)
    (with-current-buffer scratch
      (text-mode)
      (buffer-disable-undo))
    (setq buffer-undo-list nil)
    (while (< step steps)
      (let* ((command (aref maskd-test--char-commands
                            (random (length maskd-test--char-commands))))
             (at (1+ (random (1+ (buffer-size)))))
             (undo (member command '("C-_" "C-M-_"))))
        (goto-char at)
        (unless (and (not undo)
                     (let* ((last (maskd-test--side-last form))
                            (change (maskd-test--change-of
                                     command (and (symbolp last) last)
                                     (maskd-test--side-ring form) scratch)))
                       (and change (maskd-test--types-into fields change))))
          (setq step (1+ step))
          (push (format "%s@%d" command at) done)
          (let ((got (maskd-test--press-on
                      form command at
                      (lambda () (maskd-test--sync) (setq fields (maskd-test--settled)))))
                (want (maskd-test--press-on plain command at)))
            (switch-to-buffer with)
            (should (equal (list seed step (string-join (reverse done) " | ") want)
                           (list seed step (string-join (reverse done) " | ") got)))))))))

(maskd-test--deftest generated-char-commands
  "Seeded commands within lines on a form with fields give the text plain Emacs gives."
  (dolist (seed (number-sequence 1 10))
    (maskd-test--generated-chars seed 25)))

(defun maskd-test--main (label selector)
  "Run the ERT selection SELECTOR; print a LABEL line; exit with the result."
  (let* ((stats (ert-run-tests-batch selector))
         (failed (ert-stats-completed-unexpected stats))
         (skipped (ert-stats-skipped stats))
         (passed (- (ert-stats-completed-expected stats) skipped)))
    (when (maskd--running-p)
      (ignore-errors (maskd-shutdown)))
    (when (and (featurep 'eglot) (fboundp 'eglot-shutdown-all))
      (ignore-errors (eglot-shutdown-all)))
    (princ (format "%s: %d passed, %d failed, %d skipped\n"
                   label passed failed skipped))
    (kill-emacs (if (zerop failed) 0 1))))

(defun maskd-test-run-jsonrpc ()
  "Run every test of `maskd-mode' (jsonrpc.el)."
  (maskd-test--main "maskd-tests (jsonrpc.el)" '(not (tag eglot))))

(defun maskd-test-run-eglot ()
  "Run every test of maskd-eglot (eglot)."
  (unless (maskd-test--eglot-available-p)
    (princ "maskd-tests (eglot): eglot is not installed\n")
    (kill-emacs 1))
  (maskd-test--main "maskd-tests (eglot)" '(tag eglot)))

(provide 'maskd-tests)
;;; maskd-tests.el ends here
