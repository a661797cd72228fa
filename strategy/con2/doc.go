// Package con2 implements con2colic testing (seed 003: Farzan, Holzer,
// Razavi, Veith, "Con2colic Testing", ESEC/FSE 2013).
package con2
