#!/usr/bin/env bash
# Spark's Kafka connector (org.apache.spark:spark-sql-kafka-0-10_2.13:4.2.0) and the runtime jars
# it needs that PySpark does not ship (kafka-clients, commons-pool2, spark-token-provider-kafka),
# fetched from Maven Central with mvn into $ARUS_SPARK_KAFKA_CACHE (default
# ~/.cache/arus/spark-kafka), outside the clone; a no-op when cached.
#
#   jars="$(scripts/spark-kafka-jars.sh)"   # prints the jars comma-separated, for spark.jars
#
# (spark.jars.packages would fetch them itself, but Spark's resolver cannot reach a registry here.)
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)/spark-kafka"
CACHE="${ARUS_SPARK_KAFKA_CACHE:-$HOME/.cache/arus/spark-kafka}"
LIBS="$CACHE/libs-4.2.0"
WANT="spark-sql-kafka-0-10_2.13,spark-token-provider-kafka-0-10_2.13,kafka-clients,commons-pool2"

if [ ! -f "$LIBS/.complete" ]; then
  command -v mvn >/dev/null || { echo "spark-kafka-jars.sh: Maven (mvn) is needed to fetch Spark's Kafka connector" >&2; exit 1; }
  mkdir -p "$CACHE"
  cp "$HERE/pom.xml" "$CACHE/pom.xml"
  echo "spark-kafka-jars.sh: fetching Spark's Kafka connector 4.2.0 into $LIBS" >&2
  rm -rf "$LIBS.tmp"
  (cd "$CACHE" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime \
    -DincludeArtifactIds="$WANT" -DoutputDirectory="$LIBS.tmp" >&2)
  rm -rf "$LIBS" && mv "$LIBS.tmp" "$LIBS" && touch "$LIBS/.complete"
fi
ls "$LIBS"/*.jar | paste -sd, -
