; deep.scm -- recursion that is not a tail call ends in an error, not a
; crash, once the C stack is full.
(define (count n) (if (= n 0) 0 (+ 1 (count (- n 1)))))
(display (count 10000))
(newline)
(display (count 100000000))
