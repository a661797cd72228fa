module example.com/checkin

go 1.26.0
