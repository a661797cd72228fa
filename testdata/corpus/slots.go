package corpus

// OfferBug puts v in the slot if the slot has room: two offers both see
// room, and the second blocks.
func OfferBug(slot chan int, v int) bool {
	if len(slot) < cap(slot) {
		slot <- v // want TestOfferBug: deadlock
		return true
	}
	return false
}

// Offer tries the send itself.
func Offer(slot chan int, v int) bool {
	select {
	case slot <- v:
		return true
	default:
		return false
	}
}
