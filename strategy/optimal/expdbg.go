package optimal

import (
	"fmt"
	"os"
	"sync/atomic"
)

var expPlaced, expCovered, expOrphanSeqs, expOrphans, expLateFalse, expJoinIns, expLateTrue atomic.Int64

func expReport() {
	if os.Getenv("WEFT_EXP") != "" {
		fmt.Fprintf(os.Stderr, "EXP placed=%d covered=%d orphanSeqs=%d orphans=%d lateFalse=%d lateTrue=%d joinIns=%d\n", expPlaced.Load(), expCovered.Load(), expOrphanSeqs.Load(), expOrphans.Load(), expLateFalse.Load(), expLateTrue.Load(), expJoinIns.Load())
	}
}
