; unterminated.scm
(display "ok")
(newline)
(display "no end
  of it)
