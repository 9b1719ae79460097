; binary-trees.scm -- the benchmarks game's binary-trees: many
; short-lived trees of pairs, and one long-lived tree that is promoted.

(define (make-tree depth)
  (if (= depth 0)
      (cons '() '())
      (cons (make-tree (- depth 1)) (make-tree (- depth 1)))))

(define (check tree)
  (if (null? (car tree))
      1
      (+ 1 (check (car tree)) (check (cdr tree)))))

(define (expt2 n) (if (= n 0) 1 (* 2 (expt2 (- n 1)))))

(define min-depth 4)
(define max-depth 14)

(define (report label depth value)
  (display label) (display depth) (display " check: ") (display value)
  (newline))

(report "stretch tree of depth " (+ max-depth 1)
        (check (make-tree (+ max-depth 1))))

(define long-lived (make-tree max-depth))

(let loop ((depth min-depth))
  (when (<= depth max-depth)
    (let ((iterations (expt2 (+ (- max-depth depth) min-depth))))
      (let sum ((i 0) (total 0))
        (if (< i iterations)
            (sum (+ i 1) (+ total (check (make-tree depth))))
            (begin
              (display iterations)
              (report " trees of depth " depth total)))))
    (loop (+ depth 2))))

(report "long lived tree of depth " max-depth (check long-lived))
