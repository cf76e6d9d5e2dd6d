# Build the action's static binary (the commands of cli.Action, no simulator), then ship it
# alone on a minimal base.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /pipeline-action ./cmd/pipeline-action-image

FROM gcr.io/distroless/static-debian12
COPY --from=build /pipeline-action /pipeline-action
ENTRYPOINT ["/pipeline-action"]
