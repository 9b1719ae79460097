; wrong-type.scm
(display (car (cdr (list 1 2))))
(newline)
(display (vector-length
  (list 1 2)))
(display "not reached")
