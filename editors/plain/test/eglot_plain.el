;;; eglot_plain.el --- maskd's plain-client mode in eglot, no plugin  -*- lexical-binding: t; -*-

;;; Commentary:
;; Run by run.sh: emacs --batch -l eglot_plain.el (without -Q, so Debian's elpa-eglot is found).
;; Opens a card field with the maskd.openField command, types a card number key by key at the end
;; of the line, and checks that the buffer stays in form through workspace/applyEdit alone, and
;; that the diagnostics (pushed after a pause) go from a hint to nothing.
;; eglot sends didChange from an idle timer, which never fires in --batch, so the test sends them.

;;; Code:
(require 'eglot)

(setq eglot-confirm-server-initiated-edits nil)

(defun maskd-plain--fail (format-string &rest args)
  "Report a failure made of FORMAT-STRING and ARGS, and exit 1."
  (message "FAIL eglot: %s" (apply #'format format-string args))
  (kill-emacs 1))

(defun maskd-plain--wait-for (what predicate)
  "Send pending changes and handle the daemon's messages until PREDICATE holds; WHAT names it."
  (let ((deadline (+ (float-time) 5)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline) (maskd-plain--fail "timed out waiting for %s" what))
      (eglot--signal-textDocument/didChange)
      (accept-process-output nil 0.02))))

(defun maskd-plain--diagnostics ()
  "How many diagnostics eglot holds for the buffer: its own list in --batch, else Flymake's."
  (length (or eglot--diagnostics (flymake-diagnostics))))

(condition-case err
    (let* ((maskd (or (getenv "MASKD") "maskd"))
           (file (make-temp-file "maskd-plain" nil ".txt" "Card: ")))
      (find-file file)
      (text-mode)
      (let* ((server (eglot '(text-mode) (eglot--current-project) 'eglot-lsp-server
                            `(,maskd "--stdio" :initializationOptions (:edits "applyEdit")) "text"))
             (expected '("4" "41" "411" "4111" "4111 1" "4111 11" "4111 111" "4111 1111" "4111 1111 1"
                         "4111 1111 11" "4111 1111 111" "4111 1111 1111" "4111 1111 1111 1"
                         "4111 1111 1111 11" "4111 1111 1111 111" "4111 1111 1111 1111")))
        (maskd-plain--wait-for "the connection" (lambda () (eglot-current-server)))
        (eglot-execute-command
         server "maskd.openField"
         (vector (list :textDocument (list :uri (eglot--path-to-uri file))
                       :range (list :start (list :line 0 :character 6) :end (list :line 0 :character 6))
                       :mask (list :preset "card"))))
        ;; maskd pushes diagnostics once the document has been quiet (250 ms): the empty card's hint comes then.
        (maskd-plain--wait-for "the first hint" (lambda () (= (maskd-plain--diagnostics) 1)))
        (dolist (key (split-string "4111111111111111" "" t))
          (goto-char (point-max))
          (insert key)
          (let ((want (concat "Card: " (pop expected))))
            (maskd-plain--wait-for (format "%S" want) (lambda () (equal (buffer-string) want)))))
        (let ((settle (+ (float-time) 0.2)))
          (while (< (float-time) settle)
            (eglot--signal-textDocument/didChange)
            (accept-process-output nil 0.02)))
        (unless (equal (buffer-string) "Card: 4111 1111 1111 1111")
          (maskd-plain--fail "the line became %S" (buffer-string)))
        (maskd-plain--wait-for "the diagnostics to clear" (lambda () (= (maskd-plain--diagnostics) 0)))
        (let ((eglot-autoshutdown nil)) (eglot-shutdown server))
        (set-buffer-modified-p nil)
        (delete-file file)
        (message "PASS eglot: a card number typed into a plain eglot client stays in form")
        (kill-emacs 0)))
  (error (maskd-plain--fail "%S" err)))

;;; eglot_plain.el ends here
