; bad-syntax.scm
(define (f x)
  (let ((y 1) (y 2))
    y))
