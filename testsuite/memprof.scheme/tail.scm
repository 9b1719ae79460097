; tail.scm -- proper tail calls: each loop below is 10^6 calls deep or
; more, far past what the C stack holds (a call that is not a tail call
; ends in "recursion too deep" after some 10^4 to 10^5 levels).  Tail
; positions: if, cond, and, or, when, let, let*, letrec and begin bodies,
; and calls through a closure bound in a let.

(define (loop i) (if (= i 0) 'done (loop (- i 1))))
(display (loop 1000000)) (newline)

(define (even2? n) (cond ((= n 0) #t) (else (odd2? (- n 1)))))
(define (odd2? n) (and (not (= n 0)) (even2? (- n 1))))
(display (even2? 1000000)) (newline)

(display (let lp ((i 0)) (or (= i 1000000) (lp (+ i 1))))) (newline)

(define (count-down n) (when (> n 0) (begin (count-down (- n 1)))))
(display (count-down 1000000)) (newline)

(display (let lp ((i 1000000))
           (let* ((j (- i 1)) (k j))
             (letrec ((done? (lambda () (< k 0))))
               (if (done?) 'ok (lp k))))))
(newline)

(display (let loop ((i 10000000) (acc 0))
           (if (= i 0) acc (loop (- i 1) (+ acc 1)))))
(newline)
