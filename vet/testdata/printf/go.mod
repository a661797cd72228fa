module printfcheck

go 1.26.0

require github.com/weft-go/weft v0.0.0

replace github.com/weft-go/weft => ../../..
