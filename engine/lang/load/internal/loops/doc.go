// Package loops finds the loops of a pipeline's stages: the strongly connected components
// of a graph of stages, a loop through a given stage, and the transitions a stage takes
// within one event without waiting, which the loader's checks of loops that never wait
// walk.
package loops
