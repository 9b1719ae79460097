; unbalanced.scm -- the list opened on line 2 is never closed.
(define (f x)
  (+ x 1)

(display (f 1))
