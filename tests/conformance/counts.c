/* MPI_Get_count, MPI_Get_elements and MPI_Get_elements_x with derived datatypes, for whole and
   partial elements, seen through receive and probe statuses: the shim's header must never show
   in them. */
#include "conf.h"

#include <stddef.h>

struct record {
  int id;
  double value;
  char code[3];
};

static void print_counts(const char *what, const MPI_Status *status, MPI_Datatype type) {
  int count, elements;
  MPI_Count elements_x;
  MPI_Get_count(status, type, &count);
  MPI_Get_elements(status, type, &elements);
  MPI_Get_elements_x(status, type, &elements_x);
  if (count == MPI_UNDEFINED) conf_print("%s: count=undefined elements=%d elements_x=%lld\n", what, elements, (long long)elements_x);
  else conf_print("%s: count=%d elements=%d elements_x=%lld\n", what, count, elements, (long long)elements_x);
}

static MPI_Datatype record_type(void) {
  int lengths[3] = {1, 1, 3};
  MPI_Aint displacements[3] = {offsetof(struct record, id), offsetof(struct record, value), offsetof(struct record, code)};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, packed, resized;
  MPI_Type_create_struct(3, lengths, displacements, types, &packed);
  MPI_Type_create_resized(packed, 0, sizeof(struct record), &resized);
  MPI_Type_free(&packed);
  MPI_Type_commit(&resized);
  return resized;
}

/* One whole record followed by the id and value of a second: a partial record on the wire. */
static MPI_Datatype record_and_a_half(void) {
  int lengths[5] = {1, 1, 3, 1, 1};
  MPI_Aint base = sizeof(struct record);
  MPI_Aint displacements[5] = {offsetof(struct record, id), offsetof(struct record, value), offsetof(struct record, code),
                               base + offsetof(struct record, id), base + offsetof(struct record, value)};
  MPI_Datatype types[5] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_INT, MPI_DOUBLE}, type;
  MPI_Type_create_struct(5, lengths, displacements, types, &type);
  MPI_Type_commit(&type);
  return type;
}

int main(int argc, char **argv) {
  MPI_Datatype vector, record, partial;
  MPI_Status status;
  int ints[64], i;
  struct record records[4];

  conf_init(&argc, &argv);
  /* Three blocks of two ints, stride four: six ints per element. */
  MPI_Type_vector(3, 2, 4, MPI_INT, &vector);
  MPI_Type_commit(&vector);
  record = record_type();
  partial = record_and_a_half();

  if (conf_rank == 1) {
    for (i = 0; i < 64; i++) ints[i] = i;
    for (i = 0; i < 4; i++) {
      records[i].id = i;
      records[i].value = i + 0.5;
      records[i].code[0] = 'a' + i, records[i].code[1] = 'b', records[i].code[2] = 'c';
    }
    MPI_Send(ints, 2, vector, 0, 1, MPI_COMM_WORLD);
    MPI_Send(ints, 9, MPI_INT, 0, 2, MPI_COMM_WORLD);
    MPI_Send(records, 3, record, 0, 3, MPI_COMM_WORLD);
    MPI_Send(records, 2, record, 0, 4, MPI_COMM_WORLD);
    MPI_Send(records, 1, partial, 0, 5, MPI_COMM_WORLD);
    MPI_Send(ints, 0, vector, 0, 6, MPI_COMM_WORLD);
    MPI_Send(ints, 13, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    MPI_Send(ints, 5, MPI_INT, 0, 8, MPI_COMM_WORLD);
  } else if (conf_rank == 0) {
    for (i = 0; i < 64; i++) ints[i] = -1;
    MPI_Probe(1, 1, MPI_COMM_WORLD, &status);
    print_counts("vector probe", &status, vector);
    MPI_Recv(ints, 4, vector, 1, 1, MPI_COMM_WORLD, &status);
    print_counts("vector", &status, vector);
    /* The second element starts at the first one's extent, ten ints in. */
    EXPECT(ints[0] == 0 && ints[1] == 1 && ints[4] == 4 && ints[9] == 9 && ints[10] == 10 && ints[19] == 19);
    EXPECT(ints[2] == -1 && ints[12] == -1 && ints[20] == -1);

    MPI_Probe(1, 2, MPI_COMM_WORLD, &status);
    print_counts("partial vector probe", &status, vector);
    MPI_Recv(ints, 4, vector, 1, 2, MPI_COMM_WORLD, &status);
    print_counts("partial vector", &status, vector);

    MPI_Recv(records, 4, record, 1, 3, MPI_COMM_WORLD, &status);
    print_counts("struct", &status, record);
    EXPECT(records[2].id == 2 && records[2].value == 2.5 && records[2].code[0] == 'c');
    MPI_Recv(records, 4, record, 1, 4, MPI_COMM_WORLD, &status);
    print_counts("struct short", &status, record);
    MPI_Probe(1, 5, MPI_COMM_WORLD, &status);
    print_counts("partial struct probe", &status, record);
    MPI_Recv(records, 4, record, 1, 5, MPI_COMM_WORLD, &status);
    print_counts("partial struct", &status, record);
    EXPECT(records[1].id == 1 && records[1].value == 1.5);

    MPI_Recv(ints, 4, vector, 1, 6, MPI_COMM_WORLD, &status);
    print_counts("empty", &status, vector);
    MPI_Recv(ints, 64, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &status);
    print_counts("bytes", &status, MPI_BYTE);
    {
      MPI_Request request;
      MPI_Irecv(ints, 3, vector, 1, 8, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, &status);
      print_counts("partial vector irecv", &status, vector);
    }
  }
  conf_check("counts");

  MPI_Type_free(&vector);
  MPI_Type_free(&record);
  MPI_Type_free(&partial);
  return conf_finish();
}
