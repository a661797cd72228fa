module example.com/bound

go 1.26.0
