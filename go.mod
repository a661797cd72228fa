module github.com/weft-go/weft

go 1.26
