; report.scm -- what memprof shows of the VM: a list of 100000 pairs
; made by `cons' and kept through collections (promoted), and 200000
; calls, each allocating its frame in `make_frame', all of them tail
; calls whose frames die young.

(define (build n acc) (if (= n 0) acc (build (- n 1) (cons n acc))))
(define kept (build 100000 '()))
(define (churn n) (if (= n 0) 'done (churn (- n 1))))
(churn 100000)
(display (length kept))
(newline)
