; tak.scm -- Takeuchi's function (Gabriel's benchmark): deep non-tail
; recursion; every call allocates its frame.

(define (tak x y z)
  (if (not (< y x))
      z
      (tak (tak (- x 1) y z)
           (tak (- y 1) z x)
           (tak (- z 1) x y))))

(define (repeat n)
  (let loop ((i 0) (result #f))
    (if (= i n)
        result
        (loop (+ i 1) (tak 18 12 6)))))

(display "tak 18 12 6 = ")
(display (repeat 50))
(newline)
