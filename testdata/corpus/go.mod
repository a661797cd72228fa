module example.com/corpus

go 1.26.0

replace github.com/weft-go/weft => ../..
