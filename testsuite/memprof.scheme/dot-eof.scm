; dot-eof.scm -- a dotted list left open at the end of the file.
(display (list 1 . 2

