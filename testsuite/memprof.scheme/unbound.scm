; unbound.scm -- a file stops at its first error, with status 1.
(define (f x) (+ x y))
(display "before")
(newline)
(f 1)
(display "not reached")
