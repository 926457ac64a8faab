// Produces records with Kafka's own Java client, compressed by the given codec, so that the
// source is tested on record batches exactly as Kafka (and so Spark's readers) see them.
//   java -cp "$KAFKA_LIBS/*" CompressedProducer.java BOOTSTRAP COUNT TOPIC=CODEC...
// (one producer per topic, each with compression.type = its codec)
// Record i: key "k<i>" (null when i % 7 == 3), value "v<i>:" + i copies of "abc" (null when
// i % 11 == 5), timestamp 1700000000000 + i, headers h=<i> and n=null (the latter when i is even).
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class CompressedProducer {
  public static void main(String[] args) {
    int n = Integer.parseInt(args[1]);
    for (int a = 2; a < args.length; a++) {
      String[] tc = args[a].split("=", 2);
      produce(args[0], tc[0], tc[1], n);
    }
  }

  static void produce(String bootstrap, String topic, String codec, int n) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("compression.type", codec);
    p.put("linger.ms", "100");
    p.put("batch.size", "1000000");
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < n; i++) {
        byte[] key = i % 7 == 3 ? null : ("k" + i).getBytes(StandardCharsets.UTF_8);
        byte[] value = i % 11 == 5 ? null : ("v" + i + ":" + "abc".repeat(i)).getBytes(StandardCharsets.UTF_8);
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, 0, 1700000000000L + i, key, value);
        r.headers().add("h", Integer.toString(i).getBytes(StandardCharsets.UTF_8));
        if (i % 2 == 0) r.headers().add("n", null);
        producer.send(r);
      }
      producer.flush();
    }
  }
}
