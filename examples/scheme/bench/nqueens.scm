; nqueens.scm -- the number of ways to place N queens on an N x N board
; (Gabriel's queens): list building and filtering.

(define (iota1 n)
  (let loop ((i n) (l '()))
    (if (= i 0) l (loop (- i 1) (cons i l)))))

(define (ok? row dist placed)
  (or (null? placed)
      (and (not (= (car placed) (+ row dist)))
           (not (= (car placed) (- row dist)))
           (ok? row (+ dist 1) (cdr placed)))))

(define (try-it x y z)
  (if (null? x)
      (if (null? y) 1 0)
      (+ (if (ok? (car x) 1 z)
             (try-it (append (cdr x) y) '() (cons (car x) z))
             0)
         (try-it (cdr x) (cons (car x) y) z))))

(define (queens n) (try-it (iota1 n) '() '()))

(for-each (lambda (n)
            (display "queens ") (display n) (display " = ")
            (display (queens n)) (newline))
          '(4 5 6 7 8 9 10))
