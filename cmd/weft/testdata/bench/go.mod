module example.com/bench

go 1.26.0
