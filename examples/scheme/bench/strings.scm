; strings.scm -- string building: numbers to strings, appending,
; substrings, symbols from strings, and a string grown one piece at a
; time (quadratic copying, as naive code does).

(define (digits-sum s)
  (let loop ((i 0) (sum 0))
    (if (= i (string-length s))
        sum
        (loop (+ i 1) (+ sum (- (char->integer (string-ref s i)) 48))))))

(define (build n)
  (let loop ((i 0) (acc ""))
    (if (= i n)
        acc
        (loop (+ i 1) (string-append acc (number->string (modulo i 10)))))))

(define (words n)
  (let loop ((i 0) (l '()))
    (if (= i n)
        (reverse l)
        (loop (+ i 1)
              (cons (string->symbol (string-append "w" (number->string
                                                        (modulo i 97))))
                    l)))))

(define (join strings sep)
  (if (null? strings)
      ""
      (let loop ((rest (cdr strings)) (acc (car strings)))
        (if (null? rest)
            acc
            (loop (cdr rest) (string-append acc sep (car rest)))))))

(define s (build 20000))
(display "length ") (display (string-length s)) (newline)
(display "digit sum ") (display (digits-sum s)) (newline)
(display "middle ") (display (substring s 10000 10012)) (newline)

(define ws (words 100000))
(display "distinct symbols ")
(display (let count ((l ws) (seen '()) (n 0))
           (cond ((null? l) n)
                 ((memq (car l) seen) (count (cdr l) seen n))
                 (else (count (cdr l) (cons (car l) seen) (+ n 1))))))
(newline)

(define line (join (map symbol->string (list-tail ws 99990)) ","))
(write line) (newline)
(display (string=? line (list->string (string->list line)))) (newline)
