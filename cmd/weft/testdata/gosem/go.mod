module example.com/gosem

go 1.26.0
