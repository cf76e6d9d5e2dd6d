// Package sim is the scenario format and the simulator: it plays a scenario's steps against
// the fake GitHub, each event through the real run path of package run, and checks the
// scenario's expectations (the simulate command, and the scenario tests).
//
// It forges what a real GitHub or a hostile user would send, which the action itself never
// needs; only the simulate command and tests link it with the fake.
package sim
