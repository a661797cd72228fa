module example.com/timing

go 1.26.0
