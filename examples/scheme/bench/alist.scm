; alist.scm -- association lists and vectors: counting keys in an alist,
; a hash table of vectors of alists, and sorting a vector.

(define (random-stream seed)
  (lambda ()
    (set! seed (modulo (+ (* seed 1103515245) 12345) 2147483648))
    (quotient seed 65536)))

(define (count-alist keys)
  (let loop ((keys keys) (counts '()))
    (if (null? keys)
        counts
        (let ((entry (assoc (car keys) counts)))
          (if entry
              (begin (set-cdr! entry (+ (cdr entry) 1)) (loop (cdr keys) counts))
              (loop (cdr keys) (cons (cons (car keys) 1) counts)))))))

(define (table-add! table key)
  (let* ((i (modulo key (vector-length table)))
         (bucket (vector-ref table i))
         (entry (assq key bucket)))
    (if entry
        (set-cdr! entry (+ (cdr entry) 1))
        (vector-set! table i (cons (cons key 1) bucket)))))

(define (insertion-sort! v)
  (let outer ((i 1))
    (when (< i (vector-length v))
      (let ((x (vector-ref v i)))
        (let inner ((j (- i 1)))
          (if (and (>= j 0) (> (vector-ref v j) x))
              (begin (vector-set! v (+ j 1) (vector-ref v j)) (inner (- j 1)))
              (vector-set! v (+ j 1) x))))
      (outer (+ i 1)))))

(define next (random-stream 42))
(define keys (let loop ((i 0) (l '()))
               (if (= i 5000) l (loop (+ i 1) (cons (modulo (next) 300) l)))))

(define counts (count-alist (map (lambda (k) (list 'key k)) keys)))
(display "distinct keys ") (display (length counts)) (newline)

(define table (make-vector 64 '()))
(for-each (lambda (k) (table-add! table k)) keys)
(display "bucket 7 ")
(display (length (vector-ref table 7))) (newline)

(define v (list->vector (map (lambda (k) (* k 3)) (list-tail keys 3000))))
(insertion-sort! v)
(display "sorted ") (display (vector-ref v 0)) (display " ")
(display (vector-ref v 1999)) (newline)
(display "sum ") (display (apply + (vector->list v))) (newline)
