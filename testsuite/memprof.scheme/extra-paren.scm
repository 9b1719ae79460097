; extra-paren.scm
(display 1))
(display 2)
