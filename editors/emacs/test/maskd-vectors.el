;;; maskd-vectors.el --- The shared conformance vectors, typed into Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; Plays every case of Protocol/vectors/engine/*.json and
;; Protocol/vectors/presets/*.json through the plugin's own typing path:
;; the case's text in a buffer, a field opened over it with
;; maskd/openField, and each step done as a person would, through the
;; command loop (`execute-kbd-macro'): characters typed as keys, a
;; cluster of several code points and an `insert' yanked (C-y),
;; backspace as DEL, forward delete as <deletechar>, a selection as an
;; active region (`delete-selection-mode' types over it); the daemon
;; formats through didFormat.
;;
;; run.sh runs it: `maskd-vectors-run' (jsonrpc.el, under -Q) and
;; `maskd-vectors-run-eglot' (eglot, without -Q).
;;
;; MASKD_VECTORS: directories of vector files, separated by colons.
;; MASKD_VECTORS_VERBOSE=1: one line per case.
;;
;; What an editor cannot express is skipped and counted, with the reason:
;; - a raw `edit' step (a maskd/apply edit with its own selection);
;; - a forward delete of literals only: a didChange says what was
;;   deleted, not on which side of the caret, and the daemon takes
;;   every deletion for a backspace;
;; - a line break typed or pasted into a field (a field is one line);
;; - the caret carried through a `format' step (maskd/openField puts
;;   it at the field's end), and a selection an edit left selected
;;   (after a change Emacs deactivates the region).
;; Text and state are still checked in a step with such an expectation.
;; Counts are per step; after a failed or skipped step the rest of the
;; case is skipped.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(load (expand-file-name "maskd-tests.el"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)

(defvar maskd-vectors-dirs
  (let ((env (getenv "MASKD_VECTORS"))
        (root (expand-file-name "../../../Protocol/vectors" maskd-test--dir)))
    (if (and env (not (string-empty-p env)))
        (split-string env ":" t)
      (list (expand-file-name "engine" root) (expand-file-name "presets" root))))
  "Directories whose *.json vector files are played.")

(defvar maskd-vectors-verbose (equal (getenv "MASKD_VECTORS_VERBOSE") "1")
  "Non-nil to print one line per case.")

(defconst maskd-vectors--state-keys
  '("value" "complete" "valid" "problems" "next" "placeholder" "mask" "brand" "region" "type" "extension" "e164" "rfc3966")
  "The FieldState members a step may expect.")

(define-error 'maskd-vectors-skip "Step skipped")
(define-error 'maskd-vectors-fail "Step failed")

(defun maskd-vectors--read (file)
  "Return the JSON of FILE, objects as hash tables."
  (with-temp-buffer
    (insert-file-contents file)
    (json-parse-buffer :object-type 'hash-table :null-object nil
                       :false-object :json-false)))

(defun maskd-vectors--get (table key &optional default)
  "Return KEY of hash TABLE, or DEFAULT when absent."
  (if (hash-table-p table) (gethash key table default) default))

(defun maskd-vectors--json (value)
  "Return VALUE as compact JSON."
  (condition-case nil
      (json-serialize value :null-object nil :false-object :json-false)
    (error (format "%S" value))))

;;;; Grapheme clusters (enough for the vectors: Emacs 28 has no splitter)

(defun maskd-vectors--extends-p (prev ch)
  "Return non-nil if CH continues the cluster whose last character is PREV."
  (or (memq (get-char-code-property ch 'general-category) '(Mn Mc Me))
      (= ch #x200D) (= prev #x200D)
      (<= #xFE00 ch #xFE0F) (<= #xE0100 ch #xE01EF)
      (<= #x1F3FB ch #x1F3FF)
      (<= #xE0020 ch #xE007F)))

(defun maskd-vectors--clusters (string)
  "Split STRING into grapheme clusters (roughly, as UAX #29)."
  (let (clusters current (ri 0))
    (seq-doseq (ch string)
      (let ((regional (<= #x1F1E6 ch #x1F1FF)))
        (if (and current
                 (or (maskd-vectors--extends-p (aref current (1- (length current))) ch)
                     (and regional (cl-oddp ri))))
            (setq current (concat current (string ch)))
          (when current (push current clusters))
          (setq current (string ch)
                ri 0))
        (setq ri (if regional (1+ ri) 0))))
    (when current (push current clusters))
    (nreverse clusters)))

;;;; The field under test

(defvar maskd-vectors--field nil
  "The id of the case's field.")

(defvar maskd-vectors--caught nil
  "(REJECTED . OVERFLOW) gathered during the step.")

(defun maskd-vectors--gather (params)
  "Add the `rejected' and `overflow' of PARAMS to the step's."
  (let ((r (plist-get params :rejected))
        (o (plist-get params :overflow)))
    (setq maskd-vectors--caught
          (cons (concat (car maskd-vectors--caught) (if (stringp r) r ""))
                (concat (cdr maskd-vectors--caught) (if (stringp o) o ""))))))

(defun maskd-vectors--offset (pos)
  "Return buffer position POS as a UTF-16 offset into the field's line."
  (maskd--utf16-column pos))

(defun maskd-vectors--pos (offset)
  "Return the buffer position of UTF-16 OFFSET on the line."
  (maskd--point (list :line 0 :character offset)))

(defun maskd-vectors--select (start end)
  "Select from UTF-16 offset START to END (point at END)."
  (if (= start end)
      (progn (deactivate-mark) (goto-char (maskd-vectors--pos end)))
    (set-mark (maskd-vectors--pos start))
    (goto-char (maskd-vectors--pos end))
    (activate-mark)))

(defun maskd-vectors--selection ()
  "Return the selection as (START END) UTF-16 offsets, or the caret twice."
  (let ((c (maskd-vectors--offset (point))))
    (if (region-active-p)
        (list (maskd-vectors--offset (mark)) c)
      (list c c))))

(defun maskd-vectors--open (mask)
  "Open the case's field with MASK over the whole line; return the result.
Forced: the case's text may hold what the mask drops, as the engine does."
  (let ((result (if (eq maskd-test--driver 'eglot)
                    (maskd-eglot-open-field mask (point-min) (point-max) nil t)
                  (maskd-open-field mask (point-min) (point-max) nil t))))
    (setq maskd-vectors--field (plist-get result :field))
    result))

(defun maskd-vectors--skip (reason)
  "Skip the step for REASON."
  (signal 'maskd-vectors-skip (list reason)))

(defun maskd-vectors--fail (format &rest args)
  "Fail the step with a message made from FORMAT and ARGS."
  (signal 'maskd-vectors-fail (list (apply #'format format args))))

;;;; Steps

(defun maskd-vectors--yank (text)
  "Paste TEXT with `yank'."
  (kill-new text)
  (maskd-test--keys "C-y"))

(defun maskd-vectors--literal-only-p (beg end)
  "Return non-nil if BEG..END has no letter or digit."
  (not (string-match-p "[[:alnum:]]" (buffer-substring-no-properties beg end))))

(defun maskd-vectors--play (step mask)
  "Do STEP to the field with MASK.
Return nil, or for a `format' step a list holding the selection that
maskd/openField left, (START END): the caret the vector expects is
put in place after it, for the next steps."
  (let ((keys (maskd-vectors--get step "keys"))
        (insert (maskd-vectors--get step "insert"))
        (backspace (maskd-vectors--get step "backspace" 'absent))
        (delete (maskd-vectors--get step "delete" 'absent))
        (select (maskd-vectors--get step "select"))
        (set-mask (maskd-vectors--get step "setMask" 'absent))
        (observed nil))
    (cond
     ((eq (maskd-vectors--get step "format") t)
      (when maskd-vectors--field
        (if (eq maskd-test--driver 'eglot)
            (maskd-eglot-close-field maskd-vectors--field)
          (maskd-close-field maskd-vectors--field)))
      (let ((result (maskd-vectors--open mask)))
        (maskd-vectors--gather result))
      ;; openField carries no caret: what it gives is compared with the
      ;; vector (a difference is counted as not observable), then the
      ;; caret is put where the vector says, for the next steps.
      (setq observed (list (maskd-vectors--selection)))
      (let* ((want (maskd-vectors--get step "expect"))
             (sel (maskd-vectors--get want "selection"))
             (caret (maskd-vectors--get want "caret")))
        (cond (sel (maskd-vectors--select (aref sel 0) (aref sel 1)))
              (caret (maskd-vectors--select caret caret)))))
     (keys
      (dolist (cluster (maskd-vectors--clusters keys))
        (cond
         ((string-match-p "[\n\r]" cluster)
          (maskd-vectors--skip "a line break typed into a field"))
         ((< (aref cluster 0) 32)
          (maskd-vectors--skip "a control character typed"))
         ((= (length cluster) 1)
          (maskd-test--press (vector (aref cluster 0))))
         (t
          ;; An input method commits a cluster as one insertion.
          (maskd-vectors--yank cluster)))))
     (insert
      (when (string-match-p "[\n\r]" insert)
        (maskd-vectors--skip "a line break pasted into a field"))
      (if (string-empty-p insert)
          (when (region-active-p)
            (maskd-test--keys "DEL"))
        (maskd-vectors--yank insert)))
     ((not (eq backspace 'absent))
      (dotimes (_ (if (numberp backspace) backspace 1))
        (when (or (region-active-p) (> (point) (point-min)))
          (maskd-test--keys "DEL"))))
     ((not (eq delete 'absent))
      (dotimes (_ (if (numberp delete) delete 1))
        (let ((beg (if (region-active-p) (region-beginning) (point)))
              (end (if (region-active-p) (region-end) (min (1+ (point)) (point-max)))))
          (when (< beg end)
            (when (maskd-vectors--literal-only-p beg end)
              (maskd-vectors--skip
               "a forward delete of literals (a didChange does not say which side of the caret)"))
            (maskd-test--keys "<deletechar>")))))
     (select
      (maskd-vectors--select (aref select 0) (aref select 1)))
     ((not (eq set-mask 'absent))
      (maskd-vectors--gather
       (if (eq maskd-test--driver 'eglot)
           (maskd-eglot-set-field-mask maskd-vectors--field set-mask t)
         (maskd-set-field-mask maskd-vectors--field set-mask t))))
     ((maskd-vectors--get step "edit")
      (maskd-vectors--skip "a raw maskd/apply edit"))
     (t
      (maskd-vectors--skip "an unknown step")))
    observed))

(defun maskd-vectors--check (step observed)
  "Check the expectations of STEP.
OBSERVED is what `maskd-vectors--play' returned: for a `format' step,
the selection to check instead of the one put in place.  Return
non-nil if an expectation could not be observed."
  (let ((want (maskd-vectors--get step "expect"))
        (text (buffer-string))
        (sel (maskd-vectors--selection))
        (given (car observed))
        (state (maskd-field-state maskd-vectors--field))
        (skipped nil))
    (when (hash-table-p want)
      (let ((w (maskd-vectors--get want "text" 'absent)))
        (unless (or (eq w 'absent) (equal w text))
          (maskd-vectors--fail "text: expected %S, got %S" w text)))
      (let ((w (maskd-vectors--get want "caret" 'absent)))
        (unless (eq w 'absent)
          (cond (given
                 (unless (equal w (cadr given)) (setq skipped t)))
                ((not (equal w (cadr sel)))
                 (maskd-vectors--fail "caret: expected %s, got %s in %S"
                                      w (cadr sel) text)))))
      (let ((w (maskd-vectors--get want "selection")))
        (when w
          (let ((w (append w nil)))
            (cond (given
                   (unless (equal w given) (setq skipped t)))
                  ((and (not (region-active-p)) (/= (car w) (cadr w)))
                   (setq skipped t))
                  ((not (equal w sel))
                   (maskd-vectors--fail "selection: expected %S, got %S" w sel))))))
      (dolist (key maskd-vectors--state-keys)
        (let ((w (maskd-vectors--get want key 'absent))
              (got (plist-get state (intern (concat ":" key)))))
          (unless (or (eq w 'absent) (equal w got))
            (maskd-vectors--fail "%s: expected %s, got %s" key
                                 (maskd-vectors--json w) (maskd-vectors--json got)))))
      (cl-loop for key in '("rejected" "overflow")
               for got in (list (car maskd-vectors--caught) (cdr maskd-vectors--caught))
               for w = (maskd-vectors--get want key 'absent)
               unless (or (eq w 'absent) (equal w got))
               do (maskd-vectors--fail "%s: expected %S, got %S" key w got)))
    skipped))

;;;; Cases

(defvar maskd-vectors--totals nil
  "Counts: a plist of `:passed', `:failed', `:skipped'.")

(defvar maskd-vectors--reasons nil
  "Why steps were skipped: an alist of (REASON . COUNT).")

(defun maskd-vectors--count (kind &optional reason)
  "Count a step of KIND, skipped for REASON."
  (setq maskd-vectors--totals
        (plist-put maskd-vectors--totals kind
                   (1+ (or (plist-get maskd-vectors--totals kind) 0))))
  (when reason
    (let ((cell (assoc reason maskd-vectors--reasons)))
      (if cell (setcdr cell (1+ (cdr cell)))
        (push (cons reason 1) maskd-vectors--reasons)))))

(defun maskd-vectors--out (format &rest args)
  "Print a line made from FORMAT and ARGS on stdout."
  (princ (concat (apply #'format format args) "\n")))

(defun maskd-vectors--error-case (label case)
  "Play the error CASE named LABEL: its mask must be refused."
  (let* ((want (maskd-vectors--get case "error"))
         (code (maskd-vectors--get want "code"))
         (message (maskd-vectors--get want "message"))
         (err (condition-case err
                  (progn (maskd-vectors--open (maskd-vectors--get case "mask")) nil)
                (maskd-error err))))
    (cond
     ((null err)
      (maskd-vectors--count :failed)
      (maskd-vectors--out "FAIL  %s: the mask compiled, expected error %s"
                          label (maskd-vectors--json want)))
     ((and code (not (equal code (nth 2 err))))
      (maskd-vectors--count :failed)
      (maskd-vectors--out "FAIL  %s: error code %s, expected %s (%s)"
                          label (nth 2 err) code (nth 1 err)))
     ((and message (not (string-search message (nth 1 err))))
      (maskd-vectors--count :failed)
      (maskd-vectors--out "FAIL  %s: error %S does not contain %S"
                          label (nth 1 err) message))
     (t
      (maskd-vectors--count :passed)
      (when maskd-vectors-verbose
        (maskd-vectors--out "ok    %s" label))))))

(defun maskd-vectors--case (file case)
  "Play CASE of FILE."
  (let* ((label (format "%s: %s" (file-name-nondirectory file)
                        (maskd-vectors--get case "name" "?")))
         (text (maskd-vectors--get case "text" ""))
         (mask (maskd-vectors--get case "mask"))
         (steps (append (maskd-vectors--get case "steps" []) nil))
         (maskd-vectors--field nil)
         (maskd-test--last-command nil)
         (state 'passed))
    (maskd-test--buffer text)
    (unless (eq maskd-test--driver 'eglot)
      (maskd-mode 1))
    (if (maskd-vectors--get case "error")
        (maskd-vectors--error-case label case)
      (condition-case err
          (progn
            (unless (and steps (eq (maskd-vectors--get (car steps) "format") t))
              (maskd-vectors--open mask))
            (let ((sel (maskd-vectors--get case "selection")))
              (if sel
                  (maskd-vectors--select (aref sel 0) (aref sel 1))
                (goto-char (point-max)))))
        (maskd-error
         (setq state 'failed)
         (maskd-vectors--count :failed)
         (maskd-vectors--out "FAIL  %s: openField failed: %s" label (nth 1 err))))
      (cl-loop
       for step in (if (eq state 'failed) (cdr steps) steps)
       for i from (if (eq state 'failed) 2 1)
       do (if (not (eq state 'passed))
              (maskd-vectors--count :skipped (if (eq state 'failed)
                                                 "after a failed step"
                                               "after a skipped step"))
            (setq maskd-vectors--caught (cons "" ""))
            (condition-case err
                (let ((observed (maskd-vectors--play step mask)))
                  (if (maskd-vectors--check step observed)
                      (maskd-vectors--count :skipped
                                            "an expectation the editor cannot observe")
                    (maskd-vectors--count :passed)))
              (maskd-vectors-skip
               (setq state 'skipped)
               (maskd-vectors--count :skipped (cadr err)))
              ((maskd-vectors-fail maskd-error error)
               (setq state 'failed)
               (maskd-vectors--count :failed)
               (maskd-vectors--out "FAIL  %s, step %d %s: %s" label i
                                   (maskd-vectors--json step)
                                   (if (eq (car err) 'maskd-vectors-fail)
                                       (cadr err)
                                     (error-message-string err)))))))
      (when maskd-vectors-verbose
        (maskd-vectors--out "%s  %s" (if (eq state 'failed) "FAIL" "ok  ") label)))))

(defun maskd-vectors--main (driver label)
  "Play every vector file with DRIVER; print the totals under LABEL; exit."
  (let ((files (sort (mapcan (lambda (dir) (directory-files dir t "\\.json\\'"))
                             (seq-filter #'file-directory-p maskd-vectors-dirs))
                     #'string<))
        (cases 0)
        (maskd-vectors--totals (list :passed 0 :failed 0 :skipped 0))
        (maskd-vectors--reasons nil)
        (ok t))
    (when (null files)
      (maskd-vectors--out "no vector files in %s" (string-join maskd-vectors-dirs " ")))
    (condition-case err
        (maskd-test--run
         driver
         (lambda ()
           (let ((maskd-format-functions (list #'maskd-vectors--gather)))
             (dolist (file files)
               (dolist (case (append (maskd-vectors--get (maskd-vectors--read file)
                                                         "cases" [])
                                     nil))
                 (cl-incf cases)
                 (maskd-vectors--case file case)
                 ;; One buffer per case.
                 (let ((b (pop maskd-test--buffers)))
                   (when (buffer-live-p b)
                     (with-current-buffer b (set-buffer-modified-p nil))
                     (kill-buffer b))))))))
      (error
       (setq ok nil)
       (maskd-vectors--out "FAIL  the runner stopped: %s" (error-message-string err))))
    (maskd-vectors--out "%s: %d cases in %d files" label cases (length files))
    (dolist (r (sort maskd-vectors--reasons (lambda (a b) (string< (car a) (car b)))))
      (maskd-vectors--out "  skipped %d: %s" (cdr r) (car r)))
    (let ((failed (plist-get maskd-vectors--totals :failed)))
      (maskd-vectors--out "%s: %d passed, %d failed, %d skipped" label
                          (plist-get maskd-vectors--totals :passed) failed
                          (plist-get maskd-vectors--totals :skipped))
      (when (maskd--running-p)
        (ignore-errors (maskd-shutdown)))
      (when (fboundp 'eglot-shutdown-all)
        (ignore-errors (eglot-shutdown-all)))
      (kill-emacs (if (and ok files (zerop failed)) 0 1)))))

(defun maskd-vectors-run ()
  "Play the vectors through `maskd-mode'."
  (maskd-vectors--main 'jsonrpc "maskd-vectors (jsonrpc.el)"))

(defun maskd-vectors-run-eglot ()
  "Play the vectors through eglot."
  (unless (maskd-test--eglot-available-p)
    (maskd-vectors--out "maskd-vectors (eglot): eglot is not installed")
    (kill-emacs 1))
  (maskd-vectors--main 'eglot "maskd-vectors (eglot)"))

(provide 'maskd-vectors)
;;; maskd-vectors.el ends here
